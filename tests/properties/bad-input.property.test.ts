/**
 * The bad-input suite, generated from the operation registry (issue 9, item 27): every operation in
 * OPERATIONS, every bad-input class its declaration admits (bad-inputs.ts), without and with a
 * signed-in session and with its own credential, through the real route binding and pipeline on the
 * test database (walk.ts: the credentials, the organization the session owns, the judge). A new
 * operation is covered by being registered; the last test checks that the walk exercised the whole
 * registry and that every operation's input reached its parsing. Seeds: run-property.ts (fixed here,
 * random in `npm run test:properties:search`); seeds that once found a defect replay in
 * regressions.property.test.ts.
 * ASVS V4.1.1 (every error answer carries its surface's media type), V16.5.3 (a refused request
 * writes nothing, never fails open).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnyOperation, HttpMethod } from '@/lib/contract/operation';
import { OPERATIONS } from '@/lib/http/registry';
import { serve } from '@/lib/http/serve';
import { surfaceOf } from '@/lib/http/surfaces';
import { ORIGIN } from '../helpers/http';
import { BAD_INPUT_CLASSES, badInputsFor, type BadInputClass } from './bad-inputs';
import { inputsOf } from './drafts';
import { prepareOrganizationParams } from './organization';
import { modesFor } from './probe';
import { BASE_SEED, RUNS } from './run-property';
import { label, runCase, useWalk } from './walk';
import { writeCounts, writesBetween } from './write-counter';

const walk = useWalk();
const tally = { cases: 0, properties: 0, startedAt: 0 };
const exercised = new Set<string>();

beforeAll(async () => {
  console.log(`bad-input properties: PROPERTY_SEED=${BASE_SEED} PROPERTY_RUNS=${RUNS}`);
  await prepareOrganizationParams(walk.credentials.organization, OPERATIONS);
  tally.startedAt = Date.now();
});

afterAll(() => {
  const seconds = ((Date.now() - tally.startedAt) / 1000).toFixed(1);
  console.log(
    `bad-input properties: ${exercised.size} of ${OPERATIONS.length} operations, ${walk.reachedParsing.size} reached parsing; ${tally.cases} cases (operation x class), ${tally.properties} properties (x credential mode) x ${RUNS} runs: ${walk.requests} requests (shrinking included) in ${seconds} s`,
  );
});

// Which classes apply follows from the declaration alone; the arbitraries themselves are built once
// the fixtures (client id, CSRF token length, the organization's resources) exist.
const PLACEHOLDER = { baseUrl: ORIGIN, clientId: 'placeholder', redirectUri: 'http://127.0.0.1/cb' };
const classesOf = (op: AnyOperation): BadInputClass[] => [...badInputsFor(inputsOf(op, PLACEHOLDER), 43).keys()];

describe.each(OPERATIONS.map((op) => [label(op), op] as const))('%s', (_name, op) => {
  it.each(classesOf(op))('%s', async (badInput) => {
    const failures: string[] = [];
    tally.cases += 1;
    exercised.add(op.id);
    for (const mode of modesFor(op)) {
      // A wrong CSRF token only means something next to the session it should belong to.
      if (badInput === 'bad_csrf' && mode !== 'session') continue;
      tally.properties += 1;
      const failure = await runCase(walk, op, badInput, mode);
      if (failure) failures.push(failure);
    }
    // Every mode runs before failing, so one failing mode does not hide another.
    if (failures.length > 0) throw new Error(failures.join('\n\n'));
  });
});

describe('methods a path does not declare', () => {
  const METHODS: HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
  const paths = [...new Set(OPERATIONS.map((op) => op.path))];

  it("answer 405 in their surface's error format with Allow and X-Request-ID, and write nothing", async () => {
    const wrong: string[] = [];
    for (const path of paths) {
      const declared = new Set(OPERATIONS.filter((op) => op.path === path).map((op) => op.method));
      for (const method of METHODS.filter((m) => !declared.has(m))) {
        const url = `${ORIGIN}${path.replace(/\{(\w+)\}/g, 'x')}`;
        const before = await writeCounts();
        const response = await serve(path)[method](new Request(url, { method, headers: { origin: ORIGIN }, body: method === 'GET' ? null : '{}' }), {
          params: Promise.resolve({}),
        });
        const body = (await response.json().catch(() => null)) as { code?: string; request_id?: string; status?: string } | null;
        // The SCIM surface answers in the SCIM error schema (no code; the request id is in the header).
        const inFormat =
          surfaceOf(path) === 'scim'
            ? response.headers.get('content-type') === 'application/scim+json' && body?.status === '405'
            : response.headers.get('content-type') === 'application/problem+json' &&
              body?.code === 'method_not_allowed' &&
              body.request_id === response.headers.get('x-request-id');
        const ok =
          response.status === 405 &&
          inFormat &&
          /^[A-Za-z0-9._:-]{8,128}$/.test(response.headers.get('x-request-id') ?? '') &&
          response.headers.get('allow') !== null &&
          writesBetween(before, await writeCounts()).length === 0;
        if (!ok) wrong.push(`${method} ${path} -> ${response.status} ${response.headers.get('content-type')}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});

/**
 * Classes refused before parsing by design, each at its step: an unsupported version (step 2), a body
 * over the limit (step 3), junk in credential headers (step 6), a wrong CSRF token (step 7), an odd
 * organization id (the tenant check, step 8). Every other class breaks what parsing reads (params,
 * query, body, the Idempotency-Key read after it), so it must reach parsing or it tested nothing.
 */
const REFUSED_BEFORE_PARSING: readonly BadInputClass[] = ['unsupported_version', 'oversized_body', 'header_junk', 'bad_csrf', 'odd_path_id'];
const PARSED_CLASSES = BAD_INPUT_CLASSES.filter((badInput) => !REFUSED_BEFORE_PARSING.includes(badInput));

const isFormVariant = (op: AnyOperation) => op.kind === 'delegated' && op.variant !== undefined;

describe('the walk', () => {
  // Last in the file: it reads what the walk above recorded (vitest runs a file's tests in order).
  it('exercised every operation of the registry, and the input of each reached its parsing', () => {
    expect([...exercised].sort()).toEqual(OPERATIONS.map((op) => op.id).sort());
    const neverParsed = OPERATIONS.filter((op) => (walk.reachedParsing.get(op.id)?.size ?? 0) === 0).map(label);
    expect(neverParsed).toEqual([]);
    const unparsedCases = OPERATIONS.flatMap((op) =>
      classesOf(op)
        .filter((badInput) => PARSED_CLASSES.includes(badInput) && !walk.reachedParsing.get(op.id)?.has(badInput))
        // A form variant is chosen by its form body: a body that is no form goes to the main operation
        // (lib/http/serve.ts), where it may stop earlier (its Origin rule).
        .filter((badInput) => !(isFormVariant(op) && (badInput === 'invalid_json' || badInput === 'wrong_content_type')))
        .map((badInput) => `${label(op)} ${badInput}`),
    );
    expect(unparsedCases).toEqual([]);
  });
});
