import { and, eq } from 'drizzle-orm';
import type { Executor } from '@/lib/db';
import { approvals } from '@/lib/db/schema';

export type ApprovalRow = typeof approvals.$inferSelect;

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
