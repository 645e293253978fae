import { and, eq, type SQL } from 'drizzle-orm';
import type { Page, PageRequest } from '@/lib/contract/operation';
import type { Executor } from '@/lib/db';
import { keysetAfter, keysetOrder, toPage } from '@/lib/db/keyset';
import { auditEvents } from '@/lib/db/schema';

export type AuditEventRow = typeof auditEvents.$inferSelect;
export type NewAuditEvent = typeof auditEvents.$inferInsert;

export async function insertAuditEvent(db: Executor, event: NewAuditEvent): Promise<void> {
  await db.insert(auditEvents).values(event);
}

export async function listAuditEvents(
  db: Executor,
  filter: { actorId?: string; organizationId?: string },
  page: PageRequest,
): Promise<Page<AuditEventRow>> {
  const conditions: (SQL | undefined)[] = [
    filter.actorId ? eq(auditEvents.actorId, filter.actorId) : undefined,
    filter.organizationId ? eq(auditEvents.organizationId, filter.organizationId) : undefined,
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
