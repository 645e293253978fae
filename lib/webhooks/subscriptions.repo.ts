import { and, count, eq, inArray, isNull, lt, or } from 'drizzle-orm';
import type { Keyset } from '@/lib/contract/operation';
import type { Executor } from '@/lib/db';
import { keysetAfter, keysetOrder } from '@/lib/db/keyset';
import { users, webhookDeliveries, webhookSubscriptions } from '@/lib/db/schema';

export type SubscriptionRow = typeof webhookSubscriptions.$inferSelect;

export async function insertSubscription(db: Executor, row: SubscriptionRow): Promise<void> {
  await db.insert(webhookSubscriptions).values(row);
}

/** Row lock on the owner: concurrent creations by one owner are counted one after another. */
export async function lockSubscriptionOwner(db: Executor, userId: string): Promise<boolean> {
  const rows = await db.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
  return rows.length > 0;
}

export async function countEnabledSubscriptions(db: Executor, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(webhookSubscriptions)
    .where(and(eq(webhookSubscriptions.userId, userId), eq(webhookSubscriptions.status, 'enabled')));
  return row?.n ?? 0;
}

export async function listSubscriptions(db: Executor, userId: string, after: Keyset | null, limit: number): Promise<SubscriptionRow[]> {
  return db
    .select()
    .from(webhookSubscriptions)
    .where(and(eq(webhookSubscriptions.userId, userId), keysetAfter(webhookSubscriptions.createdAt, webhookSubscriptions.id, after)))
    .orderBy(...keysetOrder(webhookSubscriptions.createdAt, webhookSubscriptions.id))
    .limit(limit);
}

/** The owner's subscription, locked for the change; another owner's is simply not found. */
export async function findOwnedSubscription(db: Executor, userId: string, id: string): Promise<SubscriptionRow | null> {
  const [row] = await db
    .select()
    .from(webhookSubscriptions)
    .where(and(eq(webhookSubscriptions.id, id), eq(webhookSubscriptions.userId, userId)))
    .for('update');
  return row ?? null;
}

export async function findSubscriptions(db: Executor, ids: string[]): Promise<SubscriptionRow[]> {
  if (ids.length === 0) return [];
  return db.select().from(webhookSubscriptions).where(inArray(webhookSubscriptions.id, ids));
}

export async function replaceSecret(db: Executor, id: string, secretHash: string, secretSealed: string, now: Date): Promise<void> {
  await db.update(webhookSubscriptions).set({ secretHash, secretSealed, secretRotatedAt: now, updatedAt: now }).where(eq(webhookSubscriptions.id, id));
}

/** Disables a subscription (once) and fails its deliveries still waiting to be sent; answers whether it changed. */
export async function markSubscriptionDisabled(db: Executor, id: string, now: Date): Promise<boolean> {
  const changed = await db
    .update(webhookSubscriptions)
    .set({ status: 'disabled', disabledAt: now, updatedAt: now })
    .where(and(eq(webhookSubscriptions.id, id), eq(webhookSubscriptions.status, 'enabled')))
    .returning({ id: webhookSubscriptions.id });
  // Waiting, unleased deliveries stop here; one already leased finishes its send (the worker then
  // finds the subscription disabled before any further attempt).
  await db
    .update(webhookDeliveries)
    .set({ status: 'failed', nextAttemptAt: null, lastFailureCode: 'subscription_disabled' })
    .where(
      and(
        eq(webhookDeliveries.webhookId, id),
        inArray(webhookDeliveries.status, ['queued', 'retrying']),
        or(isNull(webhookDeliveries.leasedUntil), lt(webhookDeliveries.leasedUntil, now)),
      ),
    );
  return changed.length > 0;
}
