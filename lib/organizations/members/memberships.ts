/**
 * A person's own memberships, as the bearer API and the privacy export show them. The credential
 * owner is the only subject: there is no organization selector, so one tenant never sees another.
 */
import type { Actor } from '@/lib/contract/actor';
import type { Page, PageRequest } from '@/lib/contract/operation';
import { getDb } from '@/lib/db';
import { toPage } from '@/lib/db/keyset';
import { listActiveMemberships, type MembershipRow } from './memberships.repo';

type BearerActor = Extract<Actor, { kind: 'bearer' }>;

export function membershipView(row: MembershipRow) {
  return { id: row.id, organization: { id: row.organizationId, name: row.organizationName }, role: row.role, created_at: row.createdAt.toISOString() };
}

export async function myMemberships(actor: BearerActor, page: PageRequest): Promise<Page<ReturnType<typeof membershipView>>> {
  const rows = await listActiveMemberships(await getDb(), actor.userId, page.after, page.limit + 1);
  const result = toPage(rows, page);
  // The bearer collection envelope names the credential kind and its scopes (spec, Collection envelopes).
  return { ...result, items: result.items.map(membershipView) };
}

/** Every active membership, for the privacy export. */
export async function allMemberships(userId: string) {
  const rows = await listActiveMemberships(await getDb(), userId, null);
  return rows.map(membershipView);
}
