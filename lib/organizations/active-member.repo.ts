import { and, eq } from 'drizzle-orm';
import type { Executor } from '@/lib/db';
import { memberships, users } from '@/lib/db/schema';

export interface ActiveMemberRow {
  id: string;
  userId: string;
  email: string;
  displayName: string | null;
}

/**
 * An active member of this organization, by membership id (another organization's membership is
 * simply not found). The membership row is share-locked for the rest of the transaction, so a
 * concurrent suspension or removal waits for the caller's change (and then cleans it up) instead
 * of racing it.
 */
export async function findActiveMember(db: Executor, organizationId: string, membershipId: string): Promise<ActiveMemberRow | null> {
  const [row] = await db
    .select({ id: memberships.id, userId: memberships.userId, email: users.email, displayName: users.displayName })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.organizationId, organizationId), eq(memberships.id, membershipId), eq(memberships.status, 'active')))
    .for('share', { of: memberships });
  return row ?? null;
}
