/**
 * The ASVS coverage table (docs/asvs-coverage.md) is the list of requirements (the repository never
 * reads the ASVS text itself); this guard keeps it honest against the tests: the counts at its top are
 * its rows, every file the table names exists, every `tested` row names at least one test file under
 * lib/, tests/ or e2e/ and every file it names carries the requirement id (next to the test), and every
 * id a test file carries is a `tested` row naming that file. So comments and table cannot drift.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '../..');
const TABLE = 'docs/asvs-coverage.md';
/** This file's own examples are not requirement ids of the service. */
const SELF = 'tests/contract/asvs-coverage.test.ts';
const STATUSES = ['tested', 'implemented', 'missing', 'not applicable'] as const;

interface Row {
  id: string;
  level: string;
  status: string;
  evidence: string;
}

/** What the checks read from the repository; the synthetic case below replaces it. */
interface Repository {
  exists(file: string): boolean;
  read(file: string): string;
  /** Every test file under lib/, tests/ and e2e/, relative to the root. */
  testFiles(): string[];
}

const REQUIREMENT_ID = /^V\d+\.\d+\.\d+$/;
const ID_IN_TEXT = /(?<![\w.])V\d+\.\d+\.\d+(?!\.?\d)/g;
const NAMED_PATH = /(?<![\w/.-])((?:lib|tests|e2e|app|docs)\/[\w./[\]-]*\.(?:tsx?|md|json))/g;
const TEST_FILE = /^(?:lib|tests|e2e)\/.+\.(?:test|spec)\.ts$/;

const cellsOf = (line: string) => line.split('|').slice(1, -1).map((cell) => cell.trim());
const namedPaths = (evidence: string) => [...evidence.matchAll(NAMED_PATH)].map((m) => m[1]!);
const idsIn = (text: string) => new Set(text.match(ID_IN_TEXT) ?? []);

function parse(markdown: string): { rows: Row[]; counts: Map<string, number> } {
  const lines = markdown.split('\n');
  const rows = lines
    .filter((line) => /^\| V\d/.test(line))
    .map((line) => {
      const [id = '', level = '', status = '', evidence = ''] = cellsOf(line);
      return { id, level, status, evidence };
    });
  const counts = new Map<string, number>();
  for (const line of lines) {
    const match = /^\| (tested|implemented|missing|not applicable|total) \| (\d+) \|$/.exec(line);
    if (match) counts.set(match[1]!, Number(match[2]));
  }
  return { rows, counts };
}

function coverageProblems(markdown: string, repo: Repository): string[] {
  const { rows, counts } = parse(markdown);
  const problems: string[] = [];
  const byId = new Map<string, Row>();
  for (const row of rows) {
    if (!REQUIREMENT_ID.test(row.id)) problems.push(`${row.id}: not a requirement id`);
    if (byId.has(row.id)) problems.push(`${row.id}: listed twice`);
    byId.set(row.id, row);
    if (row.level !== 'L1' && row.level !== 'L2') problems.push(`${row.id}: level ${row.level} is not L1 or L2`);
    if (!(STATUSES as readonly string[]).includes(row.status)) problems.push(`${row.id}: status "${row.status}" is not one of ${STATUSES.join(', ')}`);
    if (row.evidence === '') problems.push(`${row.id}: no evidence`);
    for (const file of namedPaths(row.evidence)) if (!repo.exists(file)) problems.push(`${row.id}: names ${file}, which does not exist`);
  }

  for (const status of STATUSES) {
    const rowsWith = rows.filter((row) => row.status === status).length;
    if (counts.get(status) !== rowsWith) problems.push(`the count of ${status} says ${counts.get(status)}, the table has ${rowsWith}`);
  }
  if (counts.get('total') !== rows.length) problems.push(`the total says ${counts.get('total')}, the table has ${rows.length} rows`);

  for (const row of rows.filter((r) => r.status === 'tested')) {
    const files = namedPaths(row.evidence);
    if (!files.some((file) => TEST_FILE.test(file))) problems.push(`${row.id}: tested, but names no test file under lib/, tests/ or e2e/`);
    for (const file of files) {
      if (repo.exists(file) && !idsIn(repo.read(file)).has(row.id)) problems.push(`${row.id}: ${file} does not name ${row.id} (add // ASVS ${row.id} next to the test)`);
    }
  }

  for (const file of repo.testFiles()) {
    for (const id of idsIn(repo.read(file))) {
      const row = byId.get(id);
      if (!row) problems.push(`${file} names ${id}, which is not in the table`);
      else if (row.status !== 'tested' || !namedPaths(row.evidence).includes(file)) problems.push(`${file} names ${id}: its row must be tested and name ${file}`);
    }
  }
  return problems;
}

const repository: Repository = {
  exists: (file) => existsSync(path.join(ROOT, file)),
  read: (file) => readFileSync(path.join(ROOT, file), 'utf8'),
  testFiles: () =>
    ['lib', 'tests', 'e2e'].flatMap((dir) =>
      readdirSync(path.join(ROOT, dir), { recursive: true, encoding: 'utf8' })
        .map((name) => `${dir}/${name.split(path.sep).join('/')}`)
        .filter((file) => TEST_FILE.test(file) && file !== SELF),
    ),
};

describe('the ASVS coverage table', () => {
  it('agrees with its counts and with the tests that name its requirements', () => {
    const markdown = readFileSync(path.join(ROOT, TABLE), 'utf8');
    expect(parse(markdown).rows.length).toBeGreaterThan(0);
    expect(coverageProblems(markdown, repository)).toEqual([]);
  });

  it('would catch a wrong count, an unnamed id, a missing file and a test nobody counted', () => {
    const files: Record<string, string> = {
      'lib/a.test.ts': '// ASVS V1.1.1\n// ASVS V1.1.3',
      'lib/b.test.ts': 'no ids here',
    };
    const fake: Repository = { exists: (file) => file in files, read: (file) => files[file]!, testFiles: () => Object.keys(files) };
    const markdown = [
      '| tested | 1 |',
      '| implemented | 1 |',
      '| missing | 0 |',
      '| not applicable | 0 |',
      '| total | 3 |',
      '| V1.1.1 | L1 | tested | `lib/a.test.ts` ("a") |',
      '| V1.1.2 | L2 | tested | `lib/b.test.ts` ("b"); `lib/gone.test.ts` |',
      '| V1.1.3 | L3 | implemented | lib/code.ts |',
    ].join('\n');
    expect(coverageProblems(markdown, fake)).toEqual([
      'V1.1.2: names lib/gone.test.ts, which does not exist',
      'V1.1.3: level L3 is not L1 or L2',
      'V1.1.3: names lib/code.ts, which does not exist',
      'the count of tested says 1, the table has 2',
      'V1.1.2: lib/b.test.ts does not name V1.1.2 (add // ASVS V1.1.2 next to the test)',
      'lib/a.test.ts names V1.1.3: its row must be tested and name lib/a.test.ts',
    ]);
  });

  it('tells an id from a longer one that starts with it', () => {
    expect([...idsIn('ASVS V6.2.10, V6.2.1. (V6.2.11)')].sort()).toEqual(['V6.2.1', 'V6.2.10', 'V6.2.11']);
    expect(idsIn('ASVS V6.2.10').has('V6.2.1')).toBe(false);
  });
});
