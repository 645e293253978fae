import { and, asc, desc, eq, lt } from 'drizzle-orm';
import type { Executor } from '@/lib/db';
import { deletionRequests } from '@/lib/db/schema';

export type DeletionRequestRow = typeof deletionRequests.$inferSelect;

export async function insertDeletionRequest(db: Executor, row: DeletionRequestRow): Promise<void> {
  await db.insert(deletionRequests).values(row);
}

/** The account's pending request, locked for the change (at most one: a partial unique index). */
export async function findPendingRequest(db: Executor, userId: string): Promise<DeletionRequestRow | null> {
  const [row] = await db
    .select()
    .from(deletionRequests)
    .where(and(eq(deletionRequests.userId, userId), eq(deletionRequests.status, 'pending')))
    .for('update');
  return row ?? null;
}

export async function latestRequest(db: Executor, userId: string): Promise<DeletionRequestRow | null> {
  const [row] = await db.select().from(deletionRequests).where(eq(deletionRequests.userId, userId)).orderBy(desc(deletionRequests.requestedAt)).limit(1);
  return row ?? null;
}

export async function findRequest(db: Executor, id: string, lock = false): Promise<DeletionRequestRow | null> {
  const query = db.select().from(deletionRequests).where(eq(deletionRequests.id, id)).$dynamic();
  const [row] = lock ? await query.for('update') : await query;
  return row ?? null;
}

export async function updateRequest(db: Executor, id: string, change: Partial<DeletionRequestRow>): Promise<void> {
  await db.update(deletionRequests).set(change).where(eq(deletionRequests.id, id));
}

/** Pending requests made before `before`, oldest first (the operator's review queue). */
export async function pendingBefore(db: Executor, before: Date): Promise<DeletionRequestRow[]> {
  return db
    .select()
    .from(deletionRequests)
    .where(and(eq(deletionRequests.status, 'pending'), lt(deletionRequests.requestedAt, before)))
    .orderBy(asc(deletionRequests.requestedAt));
}
