/**
 * The organizations context's part of an erasure: what blocks it (an organization the person is the
 * only owner of would be left without one), and the person's memberships, the invitations addressed to
 * them and their approval requests. The organizations' own records (audit, groups) stay.
 */
import type { Executor } from '@/lib/db';
import { deleteOrganizationRecordsOf, soleOwnerships } from './erasure.repo';

export async function erasureBlockers(db: Executor, userId: string) {
  return (await soleOwnerships(db, userId)).map((org) => ({ organization_id: org.id, organization_name: org.name, reason: 'sole_owner' as const }));
}

export async function eraseOrganizationRecordsOf(tx: Executor, person: { userId: string; email: string }): Promise<void> {
  await deleteOrganizationRecordsOf(tx, person.userId, person.email);
}
