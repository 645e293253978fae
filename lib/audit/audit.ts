import { randomUUID } from 'node:crypto';
import type { Actor } from '@/lib/contract/actor';
import type { Page, PageRequest } from '@/lib/contract/operation';
import { getDb, type Executor } from '@/lib/db';
import { listUserActivity } from './activity.repo';
import { AUDIT_ACTIONS, isAuditAction, type AuditAction, type AuditData, type AuditValue, type KnownAction } from './actions';
import { eraseAuditPersonalDataOf, insertAuditEvent, listAuditEvents, type AuditEventRow } from './audit.repo';
import { developerLabels, labelKey, organizationLabels, type Labels, type OrganizationScope, type Reference } from './subject-labels.repo';

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
export function auditEventView(row: AuditEventRow, labels: Labels = new Map()) {
  const data = row.data as Record<string, AuditValue>;
  const changes = changesOf(data, labels);
  return {
    id: row.id,
    action: row.action,
    outcome: row.outcome,
    actor: { type: row.actorType, id: row.actorId, name: labelOf(labels, 'user', row.actorId) },
    subject: row.subjectType ? { type: row.subjectType, id: row.subjectId, name: labelOf(labels, row.subjectType, row.subjectId) } : null,
    request_id: row.requestId,
    data: row.data,
    ...(changes ? { changes } : {}),
    created_at: row.createdAt.toISOString(),
  };
}

const labelOf = (labels: Labels, type: string, id: string | null) => (id ? (labels.get(labelKey(type, id)) ?? null) : null);

export interface AuditChange {
  field: string;
  from?: AuditValue;
  to?: AuditValue;
}

/**
 * What an update changed, from its data: `fields` lists the changed field names; a field whose new
 * value the writer recorded (never a secret: the allow-list holds) carries it as `to`, and its old
 * value (`<field>_from`) as `from`. A custom role's id reads as the role's name where it still exists.
 */
export function changesOf(data: Record<string, AuditValue>, labels: Labels = new Map()): AuditChange[] | undefined {
  if (typeof data.fields !== 'string' || data.fields === '') return undefined;
  const shown = (field: string, value: AuditValue) => (field === 'role' && typeof value === 'string' ? (labels.get(labelKey('role', value)) ?? value) : value);
  return data.fields.split(',').map((field) => ({
    field,
    ...(Object.hasOwn(data, `${field}_from`) ? { from: shown(field, data[`${field}_from`]!) } : {}),
    ...(Object.hasOwn(data, field) ? { to: shown(field, data[field]!) } : {}),
  }));
}

/** Every party an organization's events name: actors, subjects, and the custom roles their changes name. */
function referencesOf(rows: readonly AuditEventRow[]): Reference[] {
  return rows.flatMap((row) => {
    const data = row.data as Record<string, AuditValue>;
    const roles = [data.role, data.role_from].filter((value): value is string => typeof value === 'string').map((id) => ({ type: 'role', id }));
    return [
      ...(row.actorId ? [{ type: 'user', id: row.actorId }] : []),
      ...(row.subjectType && row.subjectId ? [{ type: row.subjectType, id: row.subjectId }] : []),
      ...roles,
    ];
  });
}

export interface OrganizationAuditFilter {
  action?: string;
  actorId?: string;
  from?: Date;
  to?: Date;
}

/** One organization's audit trail (tenant-bound: only events written with its id), newest first. */
export async function organizationAuditEvents(
  scope: OrganizationScope,
  filter: OrganizationAuditFilter,
  page: PageRequest,
): Promise<Page<ReturnType<typeof auditEventView>>> {
  if (!scope.organizationId) throw new Error('An organization audit read needs the organization id.');
  const db = await getDb();
  const result = await listAuditEvents(db, { ...filter, organizationId: scope.organizationId }, page);
  // Names are read now, inside this organization: what was renamed reads by its new name, what is gone by its id.
  const labels = await organizationLabels(db, referencesOf(result.items), scope);
  return { ...result, items: result.items.map((row) => auditEventView(row, labels)) };
}

/** Action prefixes of a developer's own activity: API keys, applications, webhooks. */
export const DEVELOPER_ACTION_PREFIXES: readonly string[] = ['api_key.', 'application.', 'webhook.'];

/**
 * A developer's own activity (audit rows they acted in, with a developer action), newest first. The
 * row's `data` stays out (spec: audit metadata is excluded on the bearer surface); the subject's name
 * (their own key's, application's or webhook host's, read now) comes along when it still exists.
 */
export async function developerAuditEvents(userId: string, page: PageRequest) {
  const db = await getDb();
  const result = await listAuditEvents(db, { actorId: userId, actionPrefixes: [...DEVELOPER_ACTION_PREFIXES] }, page);
  const subjects = result.items.flatMap((row) => (row.subjectType && row.subjectId ? [{ type: row.subjectType, id: row.subjectId }] : []));
  const labels = await developerLabels(db, subjects, userId);
  return {
    ...result,
    items: result.items.map((row) => ({
      id: row.id,
      action: row.action,
      outcome: row.outcome,
      subject_type: row.subjectType,
      subject_id: row.subjectId,
      subject_name: row.subjectType && row.subjectId ? (labels.get(labelKey(row.subjectType, row.subjectId)) ?? null) : null,
      created_at: row.createdAt.toISOString(),
      request_id: row.requestId,
    })),
  };
}
