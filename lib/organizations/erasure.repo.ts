import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '@/lib/db';
import { approvals, invitations, memberships, organizations } from '@/lib/db/schema';

/** Organizations where the person is the only active owner. */
export async function soleOwnerships(db: Executor, userId: string): Promise<{ id: string; name: string }[]> {
  return db
    .select({ id: organizations.id, name: organizations.name })
    .from(memberships)
    .innerJoin(organizations, eq(organizations.id, memberships.organizationId))
    .where(
      and(
        eq(memberships.userId, userId),
        eq(memberships.status, 'active'),
        eq(memberships.role, 'owner'),
        sql`not exists (select 1 from ${memberships} other where other.organization_id = ${memberships.organizationId}
          and other.user_id <> ${userId} and other.status = 'active' and other.role = 'owner')`,
      ),
    );
}

/** Invitations addressed to the person (the address is theirs); their memberships and approval requests. */
export async function deleteOrganizationRecordsOf(db: Executor, userId: string, email: string): Promise<void> {
  await db.delete(invitations).where(eq(invitations.email, email));
  await db.delete(approvals).where(eq(approvals.requestedBy, userId));
  // Group memberships and delegated grants hang off the membership (cascade within this context).
  await db.delete(memberships).where(eq(memberships.userId, userId));
}
