import { and, asc, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { Keyset } from '@/lib/contract/operation';
import type { Executor } from '@/lib/db';
import { keysetAfter, keysetOrder } from '@/lib/db/keyset';
import { outboxEvents, webhookDeliveries, webhookDeliveryAttempts } from '@/lib/db/schema';

export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
export type AttemptRow = typeof webhookDeliveryAttempts.$inferSelect;
export type OutboxRow = typeof outboxEvents.$inferSelect;

/** Inserts deliveries; one that exists for the same (webhook, event) is left alone (idempotent fan-out). */
export async function insertDeliveries(db: Executor, rows: DeliveryRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insert(webhookDeliveries)
    .values(rows)
    .onConflictDoNothing({ target: [webhookDeliveries.webhookId, webhookDeliveries.eventId] });
}

/** Undispatched outbox events, oldest first, locked so that concurrent fan-outs take disjoint batches. */
export async function claimPendingEvents(db: Executor, limit: number): Promise<OutboxRow[]> {
  return db
    .select()
    .from(outboxEvents)
    .where(isNull(outboxEvents.dispatchedAt))
    .orderBy(asc(outboxEvents.createdAt))
    .limit(limit)
    .for('update', { skipLocked: true });
}

export async function markDispatched(db: Executor, ids: string[], now: Date): Promise<void> {
  if (ids.length > 0) await db.update(outboxEvents).set({ dispatchedAt: now }).where(inArray(outboxEvents.id, ids));
}

/** Rows of `db.execute` differ by driver (postgres-js: an array; PGlite: `{ rows }`). */
function rowsOf<T>(result: unknown): T[] {
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}

export interface AudienceRow {
  event_id: string;
  webhook_id: string;
  user_id: string;
}

/**
 * Which enabled subscriptions each event reaches: an event about a user reaches that user's own
 * subscriptions; an event about an organization reaches the subscriptions of the owners of the
 * enabled applications actively assigned to it. Nobody else's.
 */
export async function audienceOf(db: Executor, eventIds: string[]): Promise<AudienceRow[]> {
  if (eventIds.length === 0) return [];
  const ids = sql.join(
    eventIds.map((id) => sql`${id}::uuid`),
    sql`, `,
  );
  const result = await db.execute(sql`
    select e.id as event_id, s.id as webhook_id, s.user_id
      from outbox_events e
      join webhook_subscriptions s on s.user_id = e.user_id
     where e.id in (${ids}) and s.status = 'enabled' and s.events @> jsonb_build_array(e.type)
    union
    select e.id, s.id, s.user_id
      from outbox_events e
      join organization_applications oa on oa.organization_id = e.organization_id and oa.status = 'active'
      join developer_applications da on da.id = oa.application_id and da.status = 'enabled'
      join webhook_subscriptions s on s.user_id = da.user_id
     where e.id in (${ids}) and s.status = 'enabled' and s.events @> jsonb_build_array(e.type)`);
  return rowsOf<AudienceRow>(result);
}

export interface ClaimRequest {
  now: Date;
  leaseUntil: Date;
  owner: string;
  limit: number;
  /** Only this owner's deliveries (the on-demand pass of deliveries/process). */
  userId?: string;
}

/**
 * Leases due deliveries: queued or retrying, due, and not leased (or their lease ran out: the worker
 * holding it died). SKIP LOCKED lets several workers claim at once without taking the same row.
 */
export async function claimDueDeliveries(db: Executor, claim: ClaimRequest): Promise<DeliveryRow[]> {
  const d = webhookDeliveries;
  const due = db
    .select({ id: d.id })
    .from(d)
    .where(
      and(
        inArray(d.status, ['queued', 'retrying']),
        lte(d.nextAttemptAt, claim.now),
        or(isNull(d.leasedUntil), lte(d.leasedUntil, claim.now)),
        claim.userId ? eq(d.userId, claim.userId) : undefined,
      ),
    )
    .orderBy(asc(d.nextAttemptAt))
    .limit(claim.limit)
    .for('update', { skipLocked: true });
  return db.update(d).set({ leasedUntil: claim.leaseUntil, leaseOwner: claim.owner }).where(inArray(d.id, due)).returning();
}

export type DeliveryChange = Pick<
  DeliveryRow,
  'status' | 'attempts' | 'nextAttemptAt' | 'lastAttemptAt' | 'lastFailureCode' | 'lastResponseStatus' | 'deliveredAt'
>;

/**
 * Writes a batch of outcomes in one statement, each only while `owner` still holds its lease: a
 * worker whose lease was taken over (it stalled past the lease) writes nothing for that row, the new
 * holder decides. Answers the ids it wrote.
 */
export async function updateOutcomes(db: Executor, owner: string, changes: (DeliveryChange & { id: string })[]): Promise<Set<string>> {
  if (changes.length === 0) return new Set();
  const result = await db.execute(sql`
    update webhook_deliveries d
       set status = v.status, attempts = v.attempts, next_attempt_at = v."nextAttemptAt", last_attempt_at = v."lastAttemptAt",
           last_failure_code = v."lastFailureCode", last_response_status = v."lastResponseStatus", delivered_at = v."deliveredAt",
           leased_until = null, lease_owner = null
      from jsonb_to_recordset(${JSON.stringify(changes)}::jsonb) as v(id uuid, status text, attempts int, "nextAttemptAt" timestamptz,
           "lastAttemptAt" timestamptz, "lastFailureCode" text, "lastResponseStatus" int, "deliveredAt" timestamptz)
     where d.id = v.id and d.lease_owner = ${owner} and d.status in ('queued', 'retrying')
    returning d.id`);
  return new Set(rowsOf<{ id: string }>(result).map((row) => row.id));
}

export async function insertAttempts(db: Executor, rows: AttemptRow[]): Promise<void> {
  if (rows.length > 0) await db.insert(webhookDeliveryAttempts).values(rows);
}

/** Gives leases back untouched (a worker stopping before it could send). */
export async function releaseLeases(db: Executor, owner: string, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await db
    .update(webhookDeliveries)
    .set({ leasedUntil: null, leaseOwner: null })
    .where(and(eq(webhookDeliveries.leaseOwner, owner), inArray(webhookDeliveries.id, ids)));
}

export async function listDeliveries(db: Executor, userId: string, webhookId: string | undefined, after: Keyset | null, limit: number): Promise<DeliveryRow[]> {
  const d = webhookDeliveries;
  return db
    .select()
    .from(d)
    .where(and(eq(d.userId, userId), webhookId ? eq(d.webhookId, webhookId) : undefined, keysetAfter(d.createdAt, d.id, after)))
    .orderBy(...keysetOrder(d.createdAt, d.id))
    .limit(limit);
}

export async function findOwnedDelivery(db: Executor, userId: string, id: string): Promise<DeliveryRow | null> {
  const [row] = await db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.userId, userId)))
    .for('update');
  return row ?? null;
}

/** A failed delivery back in the queue, due now; its attempt count (and history) is kept. */
export async function requeueDelivery(db: Executor, id: string, now: Date): Promise<void> {
  await db
    .update(webhookDeliveries)
    .set({ status: 'queued', nextAttemptAt: now, leasedUntil: null, leaseOwner: null })
    .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.status, 'failed')));
}

/** The queue as an operator sees it: deliveries due now (queued or retrying, leased or not) and the oldest due time. */
export async function dueQueueStats(db: Executor, now: Date): Promise<{ due: number; oldestDueAt: Date | null }> {
  const d = webhookDeliveries;
  const [row] = await db
    .select({ due: sql<number>`count(*)::int`, oldest: sql<string | null>`min(${d.nextAttemptAt})` })
    .from(d)
    .where(and(inArray(d.status, ['queued', 'retrying']), lte(d.nextAttemptAt, now)));
  return { due: row?.due ?? 0, oldestDueAt: row?.oldest ? new Date(row.oldest) : null };
}
