import { and, eq } from 'drizzle-orm';
import type { Keyset } from '@/lib/contract/operation';
import type { Executor } from '@/lib/db';
import { keysetAfter, keysetOrder } from '@/lib/db/keyset';
import { memberships, organizations } from '@/lib/db/schema';

export interface MembershipRow {
  id: string;
  organizationId: string;
  organizationName: string;
  role: string;
  createdAt: Date;
}

/** Active memberships of one person, newest first, keyset-paginated (all of them without a limit). */
export async function listActiveMemberships(db: Executor, userId: string, after: Keyset | null, limit?: number): Promise<MembershipRow[]> {
  const query = db
    .select({
      id: memberships.id,
      organizationId: memberships.organizationId,
      organizationName: organizations.name,
      role: memberships.role,
      createdAt: memberships.createdAt,
    })
    .from(memberships)
    .innerJoin(organizations, eq(organizations.id, memberships.organizationId))
    .where(and(eq(memberships.userId, userId), eq(memberships.status, 'active'), keysetAfter(memberships.createdAt, memberships.id, after)))
    .orderBy(...keysetOrder(memberships.createdAt, memberships.id))
    .$dynamic();
  return limit === undefined ? query : query.limit(limit);
}
