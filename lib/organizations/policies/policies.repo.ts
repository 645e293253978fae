import { and, eq } from 'drizzle-orm';
import type { Executor } from '@/lib/db';
import { organizationPolicies } from '@/lib/db/schema';

export type PolicyRow = typeof organizationPolicies.$inferSelect;

/** Every policy the organization has set (an absent key means its default applies). */
export async function listPolicies(db: Executor, organizationId: string): Promise<PolicyRow[]> {
  return db.select().from(organizationPolicies).where(eq(organizationPolicies.organizationId, organizationId));
}

/** The policy row, locked for the rest of the transaction (set, replace and delete serialise on it). */
export async function lockPolicy(db: Executor, organizationId: string, key: string): Promise<PolicyRow | null> {
  const [row] = await db
    .select()
    .from(organizationPolicies)
    .where(and(eq(organizationPolicies.organizationId, organizationId), eq(organizationPolicies.policyKey, key)))
    .for('update');
  return row ?? null;
}

/** Sets or replaces the value (the primary key decides, under concurrency too). */
export async function upsertPolicy(db: Executor, row: PolicyRow): Promise<PolicyRow> {
  const [stored] = await db
    .insert(organizationPolicies)
    .values(row)
    .onConflictDoUpdate({
      target: [organizationPolicies.organizationId, organizationPolicies.policyKey],
      set: { value: row.value, updatedBy: row.updatedBy, updatedAt: row.updatedAt },
    })
    .returning();
  return stored!;
}

/** Replaces the value of a policy that is set; null when it is not. */
export async function updatePolicy(
  db: Executor,
  organizationId: string,
  key: string,
  change: { value: unknown; updatedBy: string; updatedAt: Date },
): Promise<PolicyRow | null> {
  const [row] = await db
    .update(organizationPolicies)
    .set(change)
    .where(and(eq(organizationPolicies.organizationId, organizationId), eq(organizationPolicies.policyKey, key)))
    .returning();
  return row ?? null;
}

/** True when a row was removed. */
export async function deletePolicy(db: Executor, organizationId: string, key: string): Promise<boolean> {
  const rows = await db
    .delete(organizationPolicies)
    .where(and(eq(organizationPolicies.organizationId, organizationId), eq(organizationPolicies.policyKey, key)))
    .returning({ key: organizationPolicies.policyKey });
  return rows.length > 0;
}
