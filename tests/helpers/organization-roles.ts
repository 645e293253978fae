/** Test data for custom roles and delegated grants (the API that assigns roles has its own tests). */
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { getDb } from '@/lib/db';
import { memberships, organizationRoles } from '@/lib/db/schema';
import { asBrowser, type Person } from './organizations';

/** Creates a custom role through the API, as `owner`; returns its id. */
export async function customRole(owner: Person, organizationId: string, name: string, permissions: string[]): Promise<string> {
  const response = await asBrowser(owner.browser, 'POST', '/api/organizations/{id}/roles', { params: { id: organizationId }, body: { name, permissions } });
  if (response.status !== 201) throw new Error(`create role failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { id: string }).id;
}

/** A custom role written as test data (no step-up or permission rules in the way); returns its id. */
export async function customRoleRow(organizationId: string, name: string, permissions: string[]): Promise<string> {
  const id = randomUUID();
  const now = new Date();
  await (await getDb()).insert(organizationRoles).values({ id, organizationId, name, permissions, createdAt: now, updatedAt: now });
  return id;
}

/** Puts a person into the organization with a custom role (test data); returns the membership id. */
export async function joinWithCustomRole(organizationId: string, userId: string, roleId: string, now = new Date()): Promise<string> {
  const id = randomUUID();
  await (
    await getDb()
  )
    .insert(memberships)
    .values({ id, organizationId, userId, role: 'custom', customRoleId: roleId, status: 'active', createdAt: now, updatedAt: now });
  return id;
}

export async function setMembershipStatus(membershipId: string, status: 'active' | 'suspended' | 'revoked'): Promise<void> {
  await (await getDb()).update(memberships).set({ status }).where(eq(memberships.id, membershipId));
}
