/**
 * The IDOR matrix, generated from the registry: every operation that declares `tenant` is driven as
 * - nobody (no credential): 401;
 * - a member of another organization, with a fresh step-up, on this organization's ids: 404;
 * - this organization's owner, with nested ids (group, role, invitation ...) that exist in another
 *   organization: 404;
 * - a member whose role lacks the declared permission: 403 forbidden;
 * - a delegate whose grant of that permission has expired: 403 forbidden;
 * - an admin on an owner-only operation: 403 forbidden;
 * - the owner with a stale step-up, where the operation declares one: 403 step_up_required;
 * and none of those refusals writes an audit event of the organization. A positive control (the owner,
 * fresh step-up, this organization's own ids) must pass tenant authorization, so a wrong fixture can
 * never make the 404s vacuous. Bearer tenant operations: unbound, bound elsewhere, and bound by a
 * non-member. A new tenant operation is covered without a test written by hand; a new kind of path
 * parameter needs its fixture below (the first test fails until it has one).
 */
import { randomUUID } from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AnyOperation } from '@/lib/contract/operation';
import { BUILT_IN_ROLE_PERMISSIONS, DELEGABLE_PERMISSIONS } from '@/lib/contract/permissions';
import { getDb } from '@/lib/db';
import { auditEvents } from '@/lib/db/schema';
import { OPERATIONS } from '@/lib/http/registry';
import { useMailbox } from '../helpers/accounts';
import { call } from '../helpers/http';
import { mintAccessToken } from '../helpers/oauth';
import { FIXTURES, NAMES, nestedPathParams, paramsIn, VALID_BODIES, world, type World } from '../helpers/organization-fixtures';
import { asBrowser, type Person } from '../helpers/organizations';
import { WalkCoverage } from '../helpers/walk-coverage';

const mailbox = useMailbox({ RATE_LIMIT_SCALE: '100' });
const label = (op: AnyOperation) => `${op.method} ${op.path}`;
const tenantOperations = OPERATIONS.filter((op) => op.tenant);
const sessionTenantOperations = tenantOperations.filter((op) => op.auth.kind === 'session');
const bearerTenantOperations = tenantOperations.filter((op) => op.auth.kind === 'bearer');
const pathParams = nestedPathParams;
const walk = new WalkCoverage();

const auditCount = async (organizationId: string) =>
  (await (await getDb()).select({ n: count() }).from(auditEvents).where(eq(auditEvents.organizationId, organizationId)))[0]!.n;

let a: World;
let b: World;
beforeAll(async () => {
  a = await world(mailbox, 'a');
  b = await world(mailbox, 'b');
});

const send = (who: Person | null, op: AnyOperation, params: Record<string, string>, options: { now?: () => Date; body?: unknown } = {}) =>
  asBrowser(who?.browser ?? null, op.method, op.path, {
    params,
    body: op.method === 'GET' ? undefined : (options.body ?? {}),
    now: options.now,
    // A required Idempotency-Key is checked after authorization: without one the handler's lookup would go untested.
    headers: op.idempotency === 'required' ? { 'idempotency-key': randomUUID() } : {},
  });

async function refusal(response: Response) {
  const body = (await response.json()) as { code?: string };
  return { status: response.status, code: body.code };
}

describe('tenant isolation (generated from the registry)', () => {
  it('covers tenant operations, each nested path id with a fixture', () => {
    expect(sessionTenantOperations.length).toBeGreaterThan(0);
    const missing = tenantOperations.flatMap((op) =>
      pathParams(op)
        .filter((name) => !FIXTURES[name] && !NAMES[name])
        .map((name) => `${label(op)} {${name}}`),
    );
    expect(missing).toEqual([]);
  });

  // ASVS V8.2.1 (a member without the declared permission, an expired delegate, an admin on an
  // owner-only operation: 403), V8.2.2 (another organization's ids: 404)
  it.each(sessionTenantOperations.map((op) => [label(op), op] as const))('%s refuses every outsider and changes nothing', async (_label, op) => {
    walk.record(op);
    const own = await paramsIn(a, op);
    const before = await auditCount(a.id);

    expect(await refusal(await send(null, op, own)), 'no session').toEqual({ status: 401, code: 'unauthenticated' });
    expect(await refusal(await send(b.owner, op, own)), 'member of another organization').toEqual({ status: 404, code: 'not_found' });

    const nestedIds = pathParams(op).filter((name) => FIXTURES[name]);
    if (nestedIds.length > 0) {
      const elsewhere = await paramsIn(b, op);
      for (const name of nestedIds) {
        const crossed = { ...own, [name]: elsewhere[name]! };
        const body = VALID_BODIES[op.id]?.(a);
        expect(await refusal(await send(a.owner, op, crossed, { body })), `{${name}} of another organization`).toEqual({ status: 404, code: 'not_found' });
      }
    }

    const permission = op.tenant!.permission;
    if (!BUILT_IN_ROLE_PERMISSIONS.member.includes(permission)) {
      expect(await refusal(await send(a.member, op, own)), 'member without the permission').toEqual({ status: 403, code: 'forbidden' });
    }
    if (DELEGABLE_PERMISSIONS.includes(permission) && !BUILT_IN_ROLE_PERMISSIONS.member.includes(permission)) {
      expect(await refusal(await send(a.delegate, op, own)), 'delegate whose grant expired').toEqual({ status: 403, code: 'forbidden' });
    }
    if (op.tenant!.ownerOnly) {
      expect(await refusal(await send(a.admin, op, own)), 'admin on an owner-only operation').toEqual({ status: 403, code: 'forbidden' });
    }
    if (op.auth.kind === 'session' && op.auth.stepUp) {
      const stale = () => new Date(Date.now() + 11 * 60_000);
      expect(await refusal(await send(a.owner, op, own, { now: stale })), 'stale step-up').toEqual({ status: 403, code: 'step_up_required' });
    }
    expect(await auditCount(a.id), 'refusals write no audit event').toBe(before);

    // Positive control: the owner with a fresh step-up gets past tenant authorization.
    const allowed = await send(a.owner, op, own);
    expect([401, 403, 404], `owner on own ids answered ${allowed.status}`).not.toContain(allowed.status);
  });

  // ASVS V8.2.2
  it.each(bearerTenantOperations.map((op) => [label(op), op] as const))('%s serves only the bound organization', async (_label, op) => {
    walk.record(op);
    const scope = op.auth.kind === 'bearer' ? op.auth.scopes.join(' ') : '';
    const own = await paramsIn(a, op);
    const bearer = async (userId: string, organizationId?: string) =>
      call(op, { params: own, headers: { authorization: `Bearer ${(await mintAccessToken(userId, scope, { organizationId })).value}` } });
    expect((await call(op, { params: own })).status, 'no credential').toBe(401);
    expect(await refusal(await bearer(a.owner.userId)), 'unbound').toEqual({ status: 403, code: 'forbidden' });
    if (op.tenant!.param === 'id')
      expect(await refusal(await bearer(b.owner.userId, b.id)), 'bound to another organization').toEqual({ status: 403, code: 'forbidden' });
    expect(await refusal(await bearer(b.owner.userId, a.id)), 'bound by a non-member').toEqual({ status: 404, code: 'not_found' });
    // A token never acts beyond its owner: a plain member's token reads what a plain member may.
    if (BUILT_IN_ROLE_PERMISSIONS.member.includes(op.tenant!.permission) || op.tenant!.permission === 'read') {
      expect((await bearer(a.member.userId, a.id)).status, 'bound member').toBe(200);
    } else {
      expect(await refusal(await bearer(a.member.userId, a.id)), 'bound member without the permission').toEqual({ status: 403, code: 'forbidden' });
      expect((await bearer(a.owner.userId, a.id)).status, 'bound owner').toBe(200);
    }
  });
});

describe('the walk', () => {
  it('ran every tenant operation, and every organization path declares its tenant', () => {
    expect(walk.gaps(tenantOperations)).toEqual({ notRun: [], unexpected: [] });
    // An organization operation without a tenant declaration would fall out of this walk unseen.
    const undeclared = OPERATIONS.filter((op) => /^\/api\/(v1\/)?organizations\/\{id\}/.test(op.path) && !op.tenant).map(label);
    expect(undeclared).toEqual([]);
  });
});
