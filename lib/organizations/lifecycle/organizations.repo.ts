import { and, eq, sql } from 'drizzle-orm';
import type { Keyset } from '@/lib/contract/operation';
import type { Executor } from '@/lib/db';
import { keysetAfter, keysetOrder } from '@/lib/db/keyset';
import { memberships, organizationRoles, organizations } from '@/lib/db/schema';

export type OrganizationRow = typeof organizations.$inferSelect;
export type NewMembership = typeof memberships.$inferInsert;

export async function insertOrganization(db: Executor, row: OrganizationRow): Promise<void> {
  await db.insert(organizations).values(row);
}

export async function slugTaken(db: Executor, slug: string): Promise<boolean> {
  const [row] = await db.select({ id: organizations.id }).from(organizations).where(eq(organizations.slug, slug));
  return row !== undefined;
}

export async function findOrganization(db: Executor, id: string): Promise<OrganizationRow | null> {
  const [row] = await db.select().from(organizations).where(eq(organizations.id, id));
  return row ?? null;
}

/** Null when the slug is taken by another organization (the unique index decides, under concurrency too). */
export async function updateOrganization(db: Executor, id: string, changes: { name?: string; slug?: string }, now: Date): Promise<OrganizationRow | null> {
  const [row] = await db
    .update(organizations)
    .set({ ...changes, updatedAt: now })
    .where(eq(organizations.id, id))
    .returning();
  return row ?? null;
}

export async function insertMembership(db: Executor, row: NewMembership): Promise<void> {
  await db.insert(memberships).values(row);
}

/** One of a person's organizations; `id` and `createdAt` are the membership's (the keyset walks memberships). */
export interface MyOrganizationRow {
  id: string;
  createdAt: Date;
  organizationId: string;
  name: string;
  slug: string;
  role: 'owner' | 'admin' | 'member' | 'custom';
  customRoleId: string | null;
  customRoleName: string | null;
  organizationCreatedAt: Date;
}

/** The organizations a person is an active member of, newest membership first, keyset-paginated. */
export async function listOrganizationsOfUser(db: Executor, userId: string, after: Keyset | null, limit: number): Promise<MyOrganizationRow[]> {
  return db
    .select({
      id: memberships.id,
      createdAt: memberships.createdAt,
      organizationId: organizations.id,
      name: organizations.name,
      slug: organizations.slug,
      role: memberships.role,
      customRoleId: memberships.customRoleId,
      customRoleName: organizationRoles.name,
      organizationCreatedAt: organizations.createdAt,
    })
    .from(memberships)
    .innerJoin(organizations, eq(organizations.id, memberships.organizationId))
    .leftJoin(organizationRoles, eq(organizationRoles.id, memberships.customRoleId))
    .where(and(eq(memberships.userId, userId), eq(memberships.status, 'active'), keysetAfter(memberships.createdAt, memberships.id, after)))
    .orderBy(...keysetOrder(memberships.createdAt, memberships.id))
    .limit(limit);
}

/** Takes the organization's row lock: owner-changing writes serialise on it (the last-owner rule). */
export async function lockOrganization(db: Executor, id: string): Promise<void> {
  await db.execute(sql`select 1 from ${organizations} where ${organizations.id} = ${id} for update`);
}
