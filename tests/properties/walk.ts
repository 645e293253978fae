/**
 * One walk of the bad-input properties: the credentials it sends requests with, the judge of each
 * request, and the record of how far the requests got. Each request is judged against every property
 * of surfaces.ts plus "nothing written by a refused request" (per-table write counts,
 * write-counter.ts); how deep it went is told by the pipeline itself (lib/http/pipeline-steps.ts).
 * Organization operations act in the probe organization (organization.ts), so their input reaches
 * parsing and their handlers instead of stopping at the tenant check.
 */
import { afterAll, beforeAll } from 'vitest';
import type { AnyOperation } from '@/lib/contract/operation';
import { observePipelineSteps, type PipelineStep } from '@/lib/http/pipeline-steps';
import { useMailbox } from '../helpers/accounts';
import { badInputsFor, type BadInputClass } from './bad-inputs';
import { inputsOf, type Draft } from './drafts';
import { createCredentials, keepSignedIn, type Credentials } from './fixtures';
import { organizationParams, restoreDefaultPolicies } from './organization';
import { describeExchange, probeOf, send, type Mode } from './probe';
import { checkProperty } from './run-property';
import { answerViolations, isRefusal, schemaRefusal } from './surfaces';
import { installWriteCounter, writeCounts, writesBetween } from './write-counter';

export interface Walk {
  credentials: Credentials;
  mailbox: ReturnType<typeof useMailbox>;
  requests: number;
  /** Per operation id: the bad-input classes of which at least one request reached parsing. */
  reachedParsing: Map<string, Set<BadInputClass>>;
}

export const label = (op: AnyOperation) => `${op.method} ${op.path}${op.kind === 'delegated' && op.variant ? ` (${op.id})` : ''}`;

/**
 * Parsing is where bad input is meant to be met: an API operation's request got past authorization
 * (scopes, the tenant, step-up) to step 9; a protocol operation's was handed to the provider, which
 * parses its own parameters.
 */
const REACHES_PARSING: Record<AnyOperation['kind'], PipelineStep> = { resource: 'authorization', collection: 'authorization', delegated: 'handed_to_provider' };

/** Sets a walk up for the test file (its mailbox, write counter, credentials and step observer). */
export function useWalk(): Walk {
  // Every gate open (SAML execution is off by default): a gate's 503 would stop bad input before it
  // meets the operation's own handling.
  const walk = { mailbox: useMailbox({ SAML_ENABLED: 'true' }), requests: 0, reachedParsing: new Map() } as Walk;
  beforeAll(async () => {
    await installWriteCounter();
    walk.credentials = await createCredentials(walk.mailbox);
    observePipelineSteps((op, step) => {
      // The route binding may pick another operation at the same method and path (a form variant's
      // main operation takes what is not a form): the request reached parsing all the same.
      if (judged && op.method === judged.op.method && op.path === judged.op.path && step === REACHES_PARSING[op.kind]) judged.parsed = true;
    });
  });
  afterAll(() => observePipelineSteps(null));
  return walk;
}

/** Whether the judged request reached parsing (only its own: fixtures and preludes are not judged). */
let judged: { op: AnyOperation; parsed: boolean } | null = null;

function classesParsed(walk: Walk, op: AnyOperation): Set<BadInputClass> {
  let classes = walk.reachedParsing.get(op.id);
  if (!classes) walk.reachedParsing.set(op.id, (classes = new Set()));
  return classes;
}

/** Policies are set only at their own path (an accepted approval changes nothing by itself). */
const setsPolicies = (op: AnyOperation) => op.path.startsWith('/api/organizations/{id}/policies') && op.method !== 'GET';

/** One request judged against every property; throws with the exchange when one does not hold. */
async function judge(walk: Walk, op: AnyOperation, badInput: BadInputClass, mode: Mode, draft: Draft): Promise<void> {
  const { credentials } = walk;
  walk.requests += 1;
  if (draft.prelude) {
    await send(op, probeOf(op, mode, draft.prelude, credentials));
    if (setsPolicies(op)) await restoreDefaultPolicies(credentials.organization);
  }
  const probe = probeOf(op, mode, draft, credentials);
  const before = await writeCounts();
  judged = { op, parsed: false };
  const answer = await send(op, probe).finally(() => {
    if (judged!.parsed) classesParsed(walk, op).add(badInput);
    judged = null;
  });
  const violations = answerViolations(op, answer);
  if (isRefusal(answer)) {
    const written = writesBetween(before, await writeCounts());
    if (written.length) violations.push(`a refused request wrote: ${written.join(', ')}`);
  }
  // After the write count: the restore is test data, not the request's doing.
  if (setsPolicies(op)) await restoreDefaultPolicies(credentials.organization);
  const refusedPart = schemaRefusal(op, probe);
  if (refusedPart && !isRefusal(answer)) violations.push(`its own ${refusedPart} schema refuses this input, yet it answered ${answer.status}`);
  if (violations.length > 0) throw new Error([`[${mode}] ${draft.note}`, ...violations.map((v) => `  - ${v}`), describeExchange(probe, answer)].join('\n'));
}

/** Checks one bad-input class of one operation in one credential mode; the failure message, if any. */
export async function runCase(
  walk: Walk,
  op: AnyOperation,
  badInput: BadInputClass,
  mode: Mode,
  options: { baseSeed?: number; runs?: number } = {},
): Promise<string | null> {
  const { credentials } = walk;
  if (mode === 'session') await keepSignedIn(credentials, walk.mailbox);
  // Organization operations act in the probe organization, with resources made for them (made before
  // the walk by the suite; made here on first use by a single regression case).
  const realParams = op.tenant ? await organizationParams(credentials.organization, op) : undefined;
  const arbitrary = badInputsFor(inputsOf(op, credentials.protocol, realParams), credentials.person.browser.csrf.length).get(badInput)!;
  try {
    await checkProperty(`${label(op)} ${badInput} ${mode}`, arbitrary, (draft) => judge(walk, op, badInput, mode, draft), options);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}
