/**
 * The bad-input suite, generated from the operation registry (issue 9, item 27): every operation in
 * OPERATIONS, every bad-input class its declaration admits (bad-inputs.ts), without and with a
 * signed-in session and with its own credential, through the real route binding and pipeline on the
 * test database. A new operation is covered by being registered. The properties are in surfaces.ts;
 * "nothing written by a refused request" is judged here with per-table write counts (write-counter.ts).
 * ASVS V4.1.1 (every error answer carries its surface's media type), V16.5.3 (a refused request
 * writes nothing, never fails open).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnyOperation, HttpMethod } from '@/lib/contract/operation';
import { OPERATIONS } from '@/lib/http/registry';
import { serve } from '@/lib/http/serve';
import { useMailbox } from '../helpers/accounts';
import { ORIGIN } from '../helpers/http';
import { badInputsFor, type BadInputClass } from './bad-inputs';
import { inputsOf, type Draft } from './drafts';
import { createCredentials, keepSignedIn, type Credentials } from './fixtures';
import { describeExchange, modesFor, probeOf, send, type Mode } from './probe';
import { BASE_SEED, checkProperty, RUNS } from './run-property';
import { answerViolations, isRefusal, schemaRefusal } from './surfaces';
import { installWriteCounter, writeCounts, writesBetween } from './write-counter';

const mailbox = useMailbox();
let credentials: Credentials;
const tally = { cases: 0, properties: 0, requests: 0, startedAt: 0 };

beforeAll(async () => {
  console.log(`bad-input properties: PROPERTY_SEED=${BASE_SEED} PROPERTY_RUNS=${RUNS}`);
  await installWriteCounter();
  credentials = await createCredentials(mailbox);
  tally.startedAt = Date.now();
});

afterAll(() => {
  const seconds = ((Date.now() - tally.startedAt) / 1000).toFixed(1);
  console.log(
    `bad-input properties: ${OPERATIONS.length} operations, ${tally.cases} cases (operation x class), ${tally.properties} properties (x credential mode) x ${RUNS} runs: ${tally.requests} requests (shrinking included) in ${seconds} s`,
  );
});

const label = (op: AnyOperation) => `${op.method} ${op.path}${op.kind === 'delegated' && op.variant ? ` (${op.id})` : ''}`;

/** One request judged against every property; throws with the exchange when one does not hold. */
async function judge(op: AnyOperation, mode: Mode, draft: Draft): Promise<void> {
  tally.requests += 1;
  if (draft.prelude) await send(op, probeOf(op, mode, draft.prelude, credentials));
  const probe = probeOf(op, mode, draft, credentials);
  const before = await writeCounts();
  const answer = await send(op, probe);
  const violations = answerViolations(op, answer);
  if (isRefusal(answer)) {
    const written = writesBetween(before, await writeCounts());
    if (written.length) violations.push(`a refused request wrote: ${written.join(', ')}`);
  }
  const refusedPart = schemaRefusal(op, probe);
  if (refusedPart && !isRefusal(answer)) violations.push(`its own ${refusedPart} schema refuses this input, yet it answered ${answer.status}`);
  if (violations.length > 0) throw new Error([`[${mode}] ${draft.note}`, ...violations.map((v) => `  - ${v}`), describeExchange(probe, answer)].join('\n'));
}

// Which classes apply follows from the declaration alone; the arbitraries themselves are built once
// the fixtures (client id, CSRF token length) exist.
const PLACEHOLDER = { baseUrl: ORIGIN, clientId: 'placeholder', redirectUri: 'http://127.0.0.1/cb' };
const classesOf = (op: AnyOperation): BadInputClass[] => [...badInputsFor(inputsOf(op, PLACEHOLDER), 43).keys()];

describe.each(OPERATIONS.map((op) => [label(op), op] as const))('%s', (name, op) => {
  it.each(classesOf(op))('%s', async (badInput) => {
    const failures: string[] = [];
    tally.cases += 1;
    for (const mode of modesFor(op)) {
      // A wrong CSRF token only means something next to the session it should belong to.
      if (badInput === 'bad_csrf' && mode !== 'session') continue;
      if (mode === 'session') await keepSignedIn(credentials, mailbox);
      const arbitrary = badInputsFor(inputsOf(op, credentials.protocol), credentials.browser.csrf.length).get(badInput)!;
      tally.properties += 1;
      try {
        await checkProperty(`${name} ${badInput} ${mode}`, arbitrary, (draft) => judge(op, mode, draft));
      } catch (error) {
        failures.push((error as Error).message);
      }
    }
    // Every mode runs before failing, so one failing mode does not hide another.
    if (failures.length > 0) throw new Error(failures.join('\n\n'));
  });
});

describe('methods a path does not declare', () => {
  const METHODS: HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
  const paths = [...new Set(OPERATIONS.map((op) => op.path))];

  it('answer 405 problem+json with Allow and X-Request-ID, and write nothing', async () => {
    const wrong: string[] = [];
    for (const path of paths) {
      const declared = new Set(OPERATIONS.filter((op) => op.path === path).map((op) => op.method));
      for (const method of METHODS.filter((m) => !declared.has(m))) {
        const url = `${ORIGIN}${path.replace(/\{(\w+)\}/g, 'x')}`;
        const before = await writeCounts();
        const response = await serve(path)[method](new Request(url, { method, headers: { origin: ORIGIN }, body: method === 'GET' ? null : '{}' }), { params: Promise.resolve({}) });
        const body = (await response.json().catch(() => null)) as { code?: string; request_id?: string } | null;
        const ok =
          response.status === 405 &&
          response.headers.get('content-type') === 'application/problem+json' &&
          body?.code === 'method_not_allowed' &&
          body.request_id === response.headers.get('x-request-id') &&
          response.headers.get('allow') !== null &&
          writesBetween(before, await writeCounts()).length === 0;
        if (!ok) wrong.push(`${method} ${path} -> ${response.status} ${response.headers.get('content-type')}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
