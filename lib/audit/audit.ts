import { randomUUID } from 'node:crypto';
import type { Actor } from '@/lib/contract/actor';
import type { Page, PageRequest } from '@/lib/contract/operation';
import { getDb, type Executor } from '@/lib/db';
import { listUserActivity } from './activity.repo';
import { AUDIT_ACTIONS, isAuditAction, type AuditAction, type AuditData, type AuditValue, type KnownAction } from './actions';
import { eraseAuditPersonalDataOf, insertAuditEvent, listAuditEvents, type AuditEventRow } from './audit.repo';

export interface AuditInput<A extends string = AuditAction> {
  action: A & KnownAction<A>;
  outcome: 'success' | 'failure';
  actor: Actor;
  organizationId?: string | null;
  subject?: { type: string; id: string };
  requestId?: string;
  data?: AuditData<A>;
  at: Date;
}

/** Data outside the action's allow-list is a bug in the writer: refuse it loudly, never drop it. */
function allowedData(action: string, data: Record<string, AuditValue> | undefined): Record<string, AuditValue> {
  if (!isAuditAction(action)) throw new Error(`Audit action "${action}" is not in the allow-list (lib/audit/actions.ts)`);
  const allowed: readonly string[] = AUDIT_ACTIONS[action];
  const refused = Object.keys(data ?? {}).filter((field) => !allowed.includes(field));
  if (refused.length > 0) throw new Error(`Audit action "${action}" does not allow the field(s) ${refused.join(', ')} (lib/audit/actions.ts)`);
  return { ...data };
}

function actorRef(actor: Actor): { actorType: string; actorId: string | null } {
  switch (actor.kind) {
    case 'session':
    case 'bearer':
      return { actorType: actor.kind, actorId: actor.userId };
    case 'scim':
      return { actorType: 'scim', actorId: actor.tokenId };
    default:
      return { actorType: actor.kind, actorId: null };
  }
}

/**
 * Records an audit event inside the caller's transaction. Its data is privacy-minimised by the
 * action's allow-list (lib/audit/actions.ts), checked here, once, for every writer.
 */
export async function recordAudit<A extends string>(db: Executor, input: AuditInput<A>): Promise<void> {
  const data = allowedData(input.action, input.data as Record<string, AuditValue> | undefined);
  await insertAuditEvent(db, {
    id: randomUUID(),
    createdAt: input.at,
    action: input.action,
    outcome: input.outcome,
    ...actorRef(input.actor),
    organizationId: input.organizationId ?? null,
    subjectType: input.subject?.type ?? null,
    subjectId: input.subject?.id ?? null,
    requestId: input.requestId ?? null,
    data,
  });
}

/** A person's own recent activity, privacy-minimised (action, outcome, time), newest first. */
export async function activityOf(userId: string, limit: number) {
  return listUserActivity(await getDb(), userId, limit);
}

/**
 * Privacy requests (deletion): removes the user's personal data from the audit trail, in the caller's
 * transaction, through the database's one erasure path. The rows stay (what happened, when, with which
 * outcome); the user's id disappears from their actor and subject columns, and their data is emptied.
 * Every other way of changing or deleting audit rows is refused by the database (ASVS V16.4.2).
 * Returns how many rows were redacted.
 */
export async function eraseAuditPersonalData(db: Executor, userId: string): Promise<number> {
  return eraseAuditPersonalDataOf(db, userId);
}

/** How an audit event travels in the API; its data was privacy-minimised when it was written. */
export function auditEventView(row: AuditEventRow) {
  return {
    id: row.id,
    action: row.action,
    outcome: row.outcome,
    actor: { type: row.actorType, id: row.actorId },
    subject: row.subjectType ? { type: row.subjectType, id: row.subjectId } : null,
    request_id: row.requestId,
    data: row.data,
    created_at: row.createdAt.toISOString(),
  };
}

export interface OrganizationAuditFilter {
  action?: string;
  actorId?: string;
  from?: Date;
  to?: Date;
}

/** One organization's audit trail (tenant-bound: only events written with its id), newest first. */
export async function organizationAuditEvents(
  organizationId: string,
  filter: OrganizationAuditFilter,
  page: PageRequest,
): Promise<Page<ReturnType<typeof auditEventView>>> {
  if (!organizationId) throw new Error('An organization audit read needs the organization id.');
  const result = await listAuditEvents(await getDb(), { ...filter, organizationId }, page);
  return { ...result, items: result.items.map(auditEventView) };
}

/** Action prefixes of a developer's own activity: API keys, applications, webhooks. */
export const DEVELOPER_ACTION_PREFIXES: readonly string[] = ['api_key.', 'application.', 'webhook.'];

/**
 * A developer's own activity (audit rows they acted in, with a developer action), newest first. The
 * row's `data` stays out (spec: audit metadata is excluded on the bearer surface).
 */
export async function developerAuditEvents(userId: string, page: PageRequest) {
  const result = await listAuditEvents(await getDb(), { actorId: userId, actionPrefixes: [...DEVELOPER_ACTION_PREFIXES] }, page);
  return {
    ...result,
    items: result.items.map((row) => ({
      id: row.id,
      action: row.action,
      outcome: row.outcome,
      subject_type: row.subjectType,
      subject_id: row.subjectId,
      created_at: row.createdAt.toISOString(),
      request_id: row.requestId,
    })),
  };
}
