/**
 * The ASVS coverage table (docs/asvs-coverage.md) is the list of requirements (the repository never
 * reads the ASVS text itself); this guard keeps it honest against the tests: the counts at its top are
 * its rows, every file the table names exists, every `tested` row names at least one test file under
 * lib/, tests/ or e2e/ and every file it names carries the requirement id, every test it cites by
 * title (`file` ("title", ...)) exists in that file and carries the requirement id itself (in the
 * comment right above it, its title or its body: the tag sits on the cited test, not elsewhere in the
 * file), and every id a test file carries is a `tested` row naming that file. So comments and table
 * cannot drift. Whether a test really checks its requirement is a reading, recorded in the table.
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

const CITATION = /`((?:lib|tests|e2e)\/[\w./[\]-]*\.(?:test|spec)\.ts)`\s*\(([^)]*)\)/g;
const TEST_CALL = /\b(?:it|test|describe)(?:\.each\b|\.skip\b|\.only\b)?\s*[(`]/;

const cellsOf = (line: string) =>
  line
    .split('|')
    .slice(1, -1)
    .map((cell) => cell.trim());

/** The tests an evidence cell cites by title: `file` ("title", "title": a note). */
function citedTests(evidence: string): { file: string; title: string }[] {
  return [...evidence.matchAll(CITATION)].flatMap((m) => [...m[2]!.matchAll(/"([^"]+)"/g)].map((t) => ({ file: m[1]!, title: t[1]! })));
}

const indentOf = (line: string) => line.length - line.trimStart().length;

/**
 * Where a test's requirement tag may sit: the comment lines right above the test call, the call
 * itself (its title) and its body, up to the line that closes it. Null when no test has that title.
 */
function testRegion(source: string, title: string): string | null {
  const lines = source.replace(/\\'/g, "'").split('\n');
  const quoted = [`'${title}'`, `"${title}"`, `\`${title}\``];
  const titleLine = lines.findIndex((line) => quoted.some((q) => line.includes(q)));
  if (titleLine < 0) return null;
  // The call opens on the title's line, the line above it, or (a table-driven `it.each([...])('title')`)
  // further up at the same indentation.
  let call = titleLine;
  while (call >= 0 && !(TEST_CALL.test(lines[call]!) && indentOf(lines[call]!) <= indentOf(lines[titleLine]!) + 2)) call -= 1;
  if (call < 0) return null;
  let start = call;
  while (start > 0 && /^\s*(\/\/|\/\*|\*)/.test(lines[start - 1]!)) start -= 1;
  let end = titleLine + 1;
  while (end < lines.length && (lines[end]!.trim() === '' || indentOf(lines[end]!) > indentOf(lines[call]!))) end += 1;
  return lines.slice(start, end + 1).join('\n');
}
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
      if (repo.exists(file) && !idsIn(repo.read(file)).has(row.id))
        problems.push(`${row.id}: ${file} does not name ${row.id} (add // ASVS ${row.id} next to the test)`);
    }
    for (const { file, title } of citedTests(row.evidence)) {
      if (!repo.exists(file)) continue;
      const region = testRegion(repo.read(file), title);
      if (region === null) problems.push(`${row.id}: ${file} has no test "${title}"`);
      else if (!idsIn(region).has(row.id))
        problems.push(`${row.id}: the test "${title}" in ${file} does not carry ${row.id} (the tag belongs on the cited test)`);
    }
  }

  for (const file of repo.testFiles()) {
    for (const id of idsIn(repo.read(file))) {
      const row = byId.get(id);
      if (!row) problems.push(`${file} names ${id}, which is not in the table`);
      else if (row.status !== 'tested' || !namedPaths(row.evidence).includes(file))
        problems.push(`${file} names ${id}: its row must be tested and name ${file}`);
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

  it('would catch a wrong count, an unnamed id, a missing file, a test nobody counted and a tag beside the cited test', () => {
    const files: Record<string, string> = {
      'lib/a.test.ts': "// ASVS V1.1.1\nit('a', () => {});\n// ASVS V1.1.3\nit('c', () => {});",
      'lib/b.test.ts': "it('b', () => {});",
      // The id is in the file, but on another test than the one the table cites.
      'lib/d.test.ts': "describe('d', () => {\n  it('cited', () => {\n    expect(1).toBe(1);\n  });\n\n  // ASVS V1.1.4\n  it('near', () => {});\n});",
    };
    const fake: Repository = { exists: (file) => file in files, read: (file) => files[file]!, testFiles: () => Object.keys(files) };
    const markdown = [
      '| tested | 2 |',
      '| implemented | 1 |',
      '| missing | 0 |',
      '| not applicable | 0 |',
      '| total | 4 |',
      '| V1.1.1 | L1 | tested | `lib/a.test.ts` ("a") |',
      '| V1.1.2 | L2 | tested | `lib/b.test.ts` ("b"); `lib/gone.test.ts` |',
      '| V1.1.3 | L3 | implemented | lib/code.ts |',
      '| V1.1.4 | L2 | tested | `lib/d.test.ts` ("cited", "renamed since") |',
    ].join('\n');
    expect(coverageProblems(markdown, fake)).toEqual([
      'V1.1.2: names lib/gone.test.ts, which does not exist',
      'V1.1.3: level L3 is not L1 or L2',
      'V1.1.3: names lib/code.ts, which does not exist',
      'the count of tested says 2, the table has 3',
      'V1.1.2: lib/b.test.ts does not name V1.1.2 (add // ASVS V1.1.2 next to the test)',
      'V1.1.2: the test "b" in lib/b.test.ts does not carry V1.1.2 (the tag belongs on the cited test)',
      'V1.1.4: the test "cited" in lib/d.test.ts does not carry V1.1.4 (the tag belongs on the cited test)',
      'V1.1.4: lib/d.test.ts has no test "renamed since"',
      'lib/a.test.ts names V1.1.3: its row must be tested and name lib/a.test.ts',
    ]);
  });

  it('tells an id from a longer one that starts with it', () => {
    expect([...idsIn('ASVS V6.2.10, V6.2.1. (V6.2.11)')].sort()).toEqual(['V6.2.1', 'V6.2.10', 'V6.2.11']);
    expect(idsIn('ASVS V6.2.10').has('V6.2.1')).toBe(false);
  });
});
