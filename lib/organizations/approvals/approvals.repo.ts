import { and, eq, gt, lte, type SQL } from 'drizzle-orm';
import type { Keyset } from '@/lib/contract/operation';
import type { Executor } from '@/lib/db';
import { keysetAfter, keysetOrder } from '@/lib/db/keyset';
import { approvals } from '@/lib/db/schema';

export type ApprovalRow = typeof approvals.$inferSelect;
export type StoredApprovalStatus = ApprovalRow['status'];
/** What the API shows: `expired` is a requested approval past its expiry (never stored). */
export type ApprovalStatus = StoredApprovalStatus | 'expired';

/** An approval of this organization, row-locked for the rest of the transaction (decide or use it once). */
export async function lockApproval(db: Executor, organizationId: string, approvalId: string): Promise<ApprovalRow | null> {
  const [row] = await db
    .select()
    .from(approvals)
    .where(and(eq(approvals.organizationId, organizationId), eq(approvals.id, approvalId)))
    .for('update');
  return row ?? null;
}

export async function markApprovalConsumed(db: Executor, approvalId: string, at: Date): Promise<void> {
  await db.update(approvals).set({ consumedAt: at }).where(eq(approvals.id, approvalId));
}

export async function insertApproval(db: Executor, row: ApprovalRow): Promise<void> {
  await db.insert(approvals).values(row);
}

export async function findApproval(db: Executor, organizationId: string, approvalId: string): Promise<ApprovalRow | null> {
  const [row] = await db
    .select()
    .from(approvals)
    .where(and(eq(approvals.organizationId, organizationId), eq(approvals.id, approvalId)));
  return row ?? null;
}

function statusCondition(status: ApprovalStatus, now: Date): SQL | undefined {
  if (status === 'requested') return and(eq(approvals.status, 'requested'), gt(approvals.expiresAt, now));
  if (status === 'expired') return and(eq(approvals.status, 'requested'), lte(approvals.expiresAt, now));
  return eq(approvals.status, status);
}

/** The organization's approvals, newest first, keyset-paginated, optionally of one (shown) status. */
export async function listApprovals(
  db: Executor,
  organizationId: string,
  status: ApprovalStatus | undefined,
  now: Date,
  after: Keyset | null,
  limit: number,
): Promise<ApprovalRow[]> {
  return db
    .select()
    .from(approvals)
    .where(
      and(
        eq(approvals.organizationId, organizationId),
        status ? statusCondition(status, now) : undefined,
        keysetAfter(approvals.createdAt, approvals.id, after),
      ),
    )
    .orderBy(...keysetOrder(approvals.createdAt, approvals.id))
    .limit(limit);
}

/**
 * Moves a requested, unexpired approval (the decisions' from-state in transitions/approvals.ts) to the
 * status its decision's row names, in one conditional UPDATE: of two concurrent deciders exactly one
 * gets the row back; the other (and any decision on an expired or decided approval) gets null.
 */
export async function decideApproval(
  db: Executor,
  organizationId: string,
  approvalId: string,
  decision: { status: StoredApprovalStatus; decidedBy: string; now: Date },
): Promise<ApprovalRow | null> {
  const [row] = await db
    .update(approvals)
    .set({ status: decision.status, decidedBy: decision.decidedBy, decidedAt: decision.now })
    .where(
      and(eq(approvals.organizationId, organizationId), eq(approvals.id, approvalId), eq(approvals.status, 'requested'), gt(approvals.expiresAt, decision.now)),
    )
    .returning();
  return row ?? null;
}
