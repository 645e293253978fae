'use client';

import { CONTRACTS } from '@/lib/http/contracts';
import { useCollection } from './console-api';
import { useConsole } from './console-context';
import type { Member } from './contract-types';

/**
 * E-mail addresses of the organization's members (present and removed, first pages) by account id
 * and by membership id, so lists that carry ids (approvals, audit events) can name people.
 */
export function usePeople(): { people: Map<string, string>; members: Member[] } {
  const params = { id: useConsole().organization.id };
  const members = useCollection(CONTRACTS.listOrganizationMembers, { params }).items ?? [];
  // Removed members still name the events and requests they took part in.
  const removed = useCollection(CONTRACTS.listOrganizationMembers, { params, query: { status: 'revoked' } }).items ?? [];
  const people = new Map<string, string>();
  for (const member of [...members, ...removed]) {
    people.set(member.user_id, member.email);
    people.set(member.id, member.email);
  }
  return { people, members };
}
