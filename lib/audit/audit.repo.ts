import { and, eq, gte, like, lte, or, sql, type SQL } from 'drizzle-orm';
import type { Page, PageRequest } from '@/lib/contract/operation';
import type { Executor } from '@/lib/db';
import { keysetAfter, keysetOrder, toPage } from '@/lib/db/keyset';
import { auditEvents } from '@/lib/db/schema';

export type AuditEventRow = typeof auditEvents.$inferSelect;
export type NewAuditEvent = typeof auditEvents.$inferInsert;

export async function insertAuditEvent(db: Executor, event: NewAuditEvent): Promise<void> {
  await db.insert(auditEvents).values(event);
}

export interface AuditEventFilter {
  actorId?: string;
  organizationId?: string;
  action?: string;
  /** Any of these action prefixes (e.g. `api_key.`). */
  actionPrefixes?: string[];
  /** Inclusive bounds on created_at. */
  from?: Date;
  to?: Date;
}

/** Audit events, newest first, keyset-paginated; every filter given must hold. */
export async function listAuditEvents(db: Executor, filter: AuditEventFilter, page: PageRequest): Promise<Page<AuditEventRow>> {
  const conditions: (SQL | undefined)[] = [
    filter.actorId ? eq(auditEvents.actorId, filter.actorId) : undefined,
    filter.organizationId ? eq(auditEvents.organizationId, filter.organizationId) : undefined,
    filter.action ? eq(auditEvents.action, filter.action) : undefined,
    filter.actionPrefixes ? or(...filter.actionPrefixes.map((prefix) => like(auditEvents.action, `${prefix.replace(/[\\%_]/g, '\\$&')}%`))) : undefined,
    filter.from ? gte(auditEvents.createdAt, filter.from) : undefined,
    filter.to ? lte(auditEvents.createdAt, filter.to) : undefined,
    keysetAfter(auditEvents.createdAt, auditEvents.id, page.after),
  ];
  const rows = await db
    .select()
    .from(auditEvents)
    .where(and(...conditions))
    .orderBy(...keysetOrder(auditEvents.createdAt, auditEvents.id))
    .limit(page.limit + 1);
  return toPage(rows, page);
}

/**
 * The one erasure path (drizzle/0006_audit_append_only.sql): the database function redacts the
 * user's personal data in place; any other UPDATE, DELETE or TRUNCATE of audit rows is refused.
 */
export async function eraseAuditPersonalDataOf(db: Executor, userId: string): Promise<number> {
  const result = await db.execute(sql`select erase_audit_personal_data(${userId}) as redacted`);
  // postgres-js answers an array of rows, PGlite an object with `rows`.
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as { redacted: number | string }[];
  return Number(rows[0]!.redacted);
}
