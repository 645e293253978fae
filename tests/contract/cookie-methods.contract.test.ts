/**
 * Cookie-authenticated operations and HTTP methods (ASVS V3.5.3), over the whole registry: what
 * changes state is never a safe method (a link, an image or a prefetch cannot trigger it) and carries
 * the exact-Origin rule plus the CSRF proof; every safe session operation, driven with a valid session,
 * writes nothing at all, measured by the row triggers of the write counter (only the session's
 * once-a-minute `last_seen_at` touch is allowed, see tests/properties/write-counter.ts). The session's
 * person owns an organization and an application, and each operation is called with real ids of
 * them (and of the organization's groups, roles ...), so organization reads run their handlers
 * instead of stopping at the tenant check; the pipeline tells how far each call got.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { beforeAll, describe, expect, it } from 'vitest';
import { insertAuditEvent } from '@/lib/audit/audit.repo';
import { type AnyOperation, bindResource, isUnsafe } from '@/lib/contract/operation';
import { resourceContract } from '@/lib/contract/wire';
import { getDb } from '@/lib/db';
import { observePipelineSteps, type PipelineStep } from '@/lib/http/pipeline-steps';
import { OPERATIONS } from '@/lib/http/registry';
import { newClient, useMailbox } from '../helpers/accounts';
import { createApiResource } from '../helpers/api-resources';
import { createApplication } from '../helpers/applications';
import { call } from '../helpers/http';
import { authorizationParams, authorize, CookieJar, interactionOf, pkce, registerNativeClient } from '../helpers/oauth';
import { paramsIn, type Tenant } from '../helpers/organization-fixtures';
import { createOrganization, person } from '../helpers/organizations';
import { installWriteCounter, writeCounts, writesBetween } from '../properties/write-counter';

const mailbox = useMailbox();
const label = (op: AnyOperation) => `${op.method} ${op.path}`;
const SAFE_METHODS: readonly string[] = ['GET', 'HEAD'];
const sessionOperations = OPERATIONS.filter((op) => op.auth.kind === 'session');
const safeSessionOperations = sessionOperations.filter((op) => SAFE_METHODS.includes(op.method));

/** What the declaration itself says about changing state. */
function declaresStateChange(op: AnyOperation): string[] {
  const reasons: string[] = [];
  if (op.emits && op.emits.length > 0) reasons.push(`emits ${op.emits.join(', ')}`);
  if (op.idempotency !== 'none') reasons.push(`idempotency ${op.idempotency}`);
  if (op.acceptsForm) reasons.push('accepts a form post');
  if (op.kind !== 'delegated' && [201, 202, 204].includes(op.successStatus)) reasons.push(`answers ${op.successStatus}`);
  return reasons;
}

/** A safe session operation that writes: the defect the walk below must catch (never registered). */
const writingGet = bindResource(
  resourceContract({
    id: 'test_writing_get',
    method: 'GET',
    path: '/test/writing-get',
    tag: 'Test',
    summary: 'Writes an audit row on a GET (a defect on purpose)',
    auth: { kind: 'session' },
    origin: 'if-present',
    idempotency: 'none',
    successStatus: 200,
    response: z.object({ ok: z.literal(true) }),
    testOnly: true,
  }),
  async ({ now }) => {
    await insertAuditEvent(await getDb(), { id: randomUUID(), createdAt: now, action: 'test.writing_get', outcome: 'success', actorType: 'session', data: {} });
    return { ok: true as const };
  },
);

let tenant: Tenant;
let applicationId: string;
let apiResourceId: string;
let interactionId: string;
beforeAll(async () => {
  await installWriteCounter();
  const owner = await person(mailbox, 'cookie-methods');
  tenant = { id: await createOrganization(owner), mailbox, owner };
  applicationId = (await createApplication(owner)).id;
  apiResourceId = (await createApiResource(owner)).id;
  // An authorization waiting on the consent page, for the organization choice it offers.
  const jar = new CookieJar(owner.browser);
  interactionId = interactionOf(await authorize(jar, authorizationParams(await registerNativeClient(), pkce().challenge)));
});

/** Real inputs: the organization's own resources, the person's application and API, a live interaction. */
async function inputsOf(op: AnyOperation): Promise<{ params: Record<string, string>; query?: string }> {
  if (op.tenant) return { params: await paramsIn(tenant, op) };
  if (op.id === 'getAuthorizationOrganizations') return { params: {}, query: `interaction_id=${interactionId}` };
  const owned = { application_id: applicationId, api_resource_id: apiResourceId };
  return { params: Object.fromEntries(Object.entries(owned).filter(([name]) => op.path.includes(`{${name}}`))) };
}

/** Drives a safe operation with the signed-in session (no Origin: a plain navigation or fetch). */
async function writesOf(op: AnyOperation): Promise<{ status: number; writes: string[]; steps: PipelineStep[] }> {
  // Made before counting: the fixtures write, the call must not.
  const inputs = await inputsOf(op);
  const steps: PipelineStep[] = [];
  observePipelineSteps((observed, step) => observed === op && steps.push(step));
  const before = await writeCounts();
  try {
    const response = await call(op, { ...inputs, headers: { cookie: tenant.owner.browser.cookie, 'x-forwarded-for': newClient() } });
    await response.body?.cancel();
    return { status: response.status, writes: writesBetween(before, await writeCounts()), steps };
  } finally {
    observePipelineSteps(null);
  }
}

describe('cookie operations and HTTP methods', () => {
  // ASVS V3.5.3
  it('declares no state-changing session operation on a safe method', () => {
    const changing = sessionOperations.filter((op) => declaresStateChange(op).length > 0);
    // The walk is never empty: session operations that change state exist and are all checked.
    expect(changing.length).toBeGreaterThan(0);
    expect(changing.filter((op) => SAFE_METHODS.includes(op.method)).map((op) => `${label(op)}: ${declaresStateChange(op).join('; ')}`)).toEqual([]);
    expect(safeSessionOperations.flatMap((op) => declaresStateChange(op).map((reason) => `${label(op)}: ${reason}`))).toEqual([]);
  });

  // ASVS V3.5.1, V3.5.3
  it('guards every unsafe session operation with the exact Origin (and so the CSRF proof), and refuses cross-site safe ones', () => {
    expect(sessionOperations.filter((op) => isUnsafe(op.method) && op.origin !== 'required').map(label)).toEqual([]);
    expect(safeSessionOperations.filter((op) => op.origin !== 'if-present').map(label)).toEqual([]);
  });

  // ASVS V3.5.3
  it('writes nothing when a safe session operation is called with a valid session', async () => {
    const walked: string[] = [];
    for (const op of safeSessionOperations) {
      const { status, writes, steps } = await writesOf(op);
      // Each call succeeds: it went through the operation's handler, never stopping at a 401, at the
      // organization check or at its input.
      expect(status, label(op)).toBe(200);
      expect(steps, label(op)).toContain('parsing');
      expect(writes, label(op)).toEqual([]);
      walked.push(op.id);
    }
    // The walk covered every safe session operation of the registry, none left out on the way.
    expect(walked).toEqual(OPERATIONS.filter((op) => op.auth.kind === 'session' && SAFE_METHODS.includes(op.method)).map((op) => op.id));
    expect(walked.length).toBeGreaterThan(0);
  });

  it('would catch a safe session operation that writes', async () => {
    const { status, writes } = await writesOf(writingGet);
    expect(status).toBe(200);
    expect(writes).toEqual(['audit_events +1']);
  });
});
