/**
 * Organization policies (the catalogue is lib/contract/policies.ts): list every key with its effective
 * value and default, set or replace one, delete one (its default applies again). The pipeline enforces
 * the session policies and the step-up window (lib/http/tenant.ts, lib/http/auth.ts); the approval
 * gate reads `approvals.required_for`.
 */
import { recordAudit } from '@/lib/audit';
import type { SessionActor } from '@/lib/contract/actor';
import { serviceError } from '@/lib/contract/errors';
import type { ApprovalAction, SignInMethod, TenantActor } from '@/lib/contract/tenant';
import { getDb, inTransaction, type Executor } from '@/lib/db';
import { approvalsPolicyTarget, passApprovalGate } from '../approvals/approval-gate';
import { deletePolicy, listPolicies, lockPolicy, updatePolicy, upsertPolicy, type PolicyRow } from './policies.repo';
import { isPolicyKey, loosens, POLICY_CATALOGUE, POLICY_KEYS, sessionSignInMethods, validValue, type PolicyKey } from '@/lib/contract/policies';

export function policyView(key: PolicyKey, row: PolicyRow | null) {
  const definition = POLICY_CATALOGUE[key];
  const defaultValue = definition.defaultValue();
  // A stored value that no longer fits its schema is not enforced (tenantPolicies): it shows as unset.
  const value = row ? validValue(key, row.value) : undefined;
  const set = value !== undefined;
  return {
    policy_key: key,
    value: set ? value : defaultValue,
    default_value: defaultValue,
    is_default: !set,
    description: definition.description,
    updated_at: set ? row!.updatedAt.toISOString() : null,
  };
}

/** Every catalogue key, in catalogue order: the whole list in one answer (it is small and fixed). */
export async function listOrganizationPolicies(tenant: TenantActor) {
  const rows = new Map((await listPolicies(await getDb(), tenant.organizationId)).map((row) => [row.policyKey, row]));
  return { policies: POLICY_KEYS.map((key) => policyView(key, rows.get(key) ?? null)), has_more: false as const, next_cursor: null };
}

/** The value through the key's schema; 400 with field errors under `value` (nothing changes). */
function parsedValue(key: PolicyKey, value: unknown): unknown {
  const parsed = POLICY_CATALOGUE[key].schema().safeParse(value);
  if (parsed.success) return parsed.data;
  const errors = parsed.error.issues.map((issue) => ({ path: ['body', 'value', ...issue.path.map(String)].join('.'), message: issue.message }));
  throw serviceError('invalid_request', errors.map((e) => `${e.path}: ${e.message}`).join('; '), { extras: { errors } });
}

/** The value in force: the stored one, or the default when unset (or no longer valid). */
function effectiveValue(key: PolicyKey, row: PolicyRow | null): unknown {
  return (row ? validValue(key, row.value) : undefined) ?? POLICY_CATALOGUE[key].defaultValue();
}

/** What a deletion sets: the policy's default. */
const DELETED = Symbol('deleted');

/**
 * The approval a policy change needs. `next` is the value it sets, or DELETED.
 * - Deleting a policy passes `policies.delete` (target: the key). Loosening one takes part of it away
 *   (a longer session age, another allowed sign-in method, binding off ...): it passes the same gate,
 *   or one admin could set the default instead of deleting and skip the approval.
 * - The approvals policy guards itself: a change that takes anything out of `approvals.required_for`,
 *   deleting it included, passes `approvals.loosen` whenever the list names anything, whatever it
 *   names, or one admin could lift a gate and then walk through it alone. The target is the list it
 *   becomes, and the list is the one read under the policy's row lock (not the request's snapshot).
 * Tightening never needs an approval.
 */
async function passPolicyGate(
  tx: Executor,
  tenant: TenantActor,
  actor: SessionActor,
  key: PolicyKey,
  current: PolicyRow | null,
  next: unknown,
  approvalId: string | undefined,
  now: Date,
  requestId: string,
) {
  const before = effectiveValue(key, current);
  const after = next === DELETED ? POLICY_CATALOGUE[key].defaultValue() : next;
  if (key === 'approvals.required_for') {
    if (!loosens(key, before, after)) return;
    const requiredFor = before as ApprovalAction[];
    await passApprovalGate(
      tx,
      tenant,
      actor,
      { action: 'approvals.loosen', target: approvalsPolicyTarget(after as ApprovalAction[]), approvalId },
      now,
      requestId,
      requiredFor,
    );
  } else if (next === DELETED || loosens(key, before, after)) {
    await passApprovalGate(tx, tenant, actor, { action: 'policies.delete', target: key, approvalId }, now, requestId);
  }
}

export interface PolicyChange {
  policyKey: PolicyKey;
  value: unknown;
  /** `set` creates or replaces; `replace` answers 404 when the policy is not set. */
  mode: 'set' | 'replace';
  approvalId?: string;
}

/**
 * Allowed sign-in methods must include one the acting session used: otherwise the change would shut
 * out its own author at once, and with a method nobody can use (federation before any connection
 * exists) everyone, for good, with nobody left to undo it.
 */
function assertKeepsAuthorIn(actor: SessionActor, key: PolicyKey, value: unknown): void {
  if (key !== 'signin.allowed_methods') return;
  const used = sessionSignInMethods(actor);
  if ((value as SignInMethod[]).some((method) => used.has(method))) return;
  const message = `Your own session signed in with ${[...used].join(', ') || 'no listed method'}: allow one of those, or sign in with an allowed method first.`;
  throw serviceError('conflict', message, { extras: { errors: [{ path: 'body.value', message }] } });
}

export async function setOrganizationPolicy(tenant: TenantActor, actor: SessionActor, change: PolicyChange, now: Date, requestId: string) {
  const value = parsedValue(change.policyKey, change.value);
  assertKeepsAuthorIn(actor, change.policyKey, value);
  const row = await inTransaction(async (tx) => {
    const current = await lockPolicy(tx, tenant.organizationId, change.policyKey);
    if (change.mode === 'replace' && !current) throw serviceError('not_found', 'This policy is not set; POST sets it.');
    await passPolicyGate(tx, tenant, actor, change.policyKey, current, value, change.approvalId, now, requestId);
    const stored =
      change.mode === 'replace'
        ? await updatePolicy(tx, tenant.organizationId, change.policyKey, { value, updatedBy: actor.userId, updatedAt: now })
        : await upsertPolicy(tx, {
            organizationId: tenant.organizationId,
            policyKey: change.policyKey,
            value,
            updatedBy: actor.userId,
            createdAt: now,
            updatedAt: now,
          });
    if (!stored) throw serviceError('not_found', 'This policy is not set; POST sets it.');
    await recordAudit(tx, {
      action: 'policy.set',
      outcome: 'success',
      actor,
      organizationId: tenant.organizationId,
      subject: { type: 'policy', id: change.policyKey },
      requestId,
      data: { policy: change.policyKey },
      at: now,
    });
    return stored;
  });
  return policyView(change.policyKey, row);
}

/**
 * Removes the policy: its default applies again. Gated (passPolicyGate). Deleting a policy that is not
 * set changes nothing and answers the default too (after the gate, so a retry of a gated deletion
 * still needs its approval).
 */
export async function deleteOrganizationPolicy(
  tenant: TenantActor,
  actor: SessionActor,
  key: string,
  approvalId: string | undefined,
  now: Date,
  requestId: string,
) {
  if (!isPolicyKey(key)) throw serviceError('not_found', 'No such policy.');
  await inTransaction(async (tx) => {
    const current = await lockPolicy(tx, tenant.organizationId, key);
    await passPolicyGate(tx, tenant, actor, key, current, DELETED, approvalId, now, requestId);
    if (!(await deletePolicy(tx, tenant.organizationId, key))) return;
    await recordAudit(tx, {
      action: 'policy.deleted',
      outcome: 'success',
      actor,
      organizationId: tenant.organizationId,
      subject: { type: 'policy', id: key },
      requestId,
      data: { policy: key },
      at: now,
    });
  });
  return policyView(key, null);
}
