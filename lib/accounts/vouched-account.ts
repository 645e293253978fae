/**
 * An account an organization creates for a person it vouches for: a federated sign-in (the provider
 * asserted the address) or a directory's provisioning (SCIM). No credential comes with it: the person
 * signs in through the organization's provider, or proves the mailbox with an e-mail code.
 */
import { randomUUID } from 'node:crypto';
import { recordAudit } from '@/lib/audit';
import { ANONYMOUS, type Actor } from '@/lib/contract/actor';
import type { Executor } from '@/lib/db';
import { emitEvent } from '@/lib/events';
import { insertUser, type UserRow } from '@/lib/users';
import { canonicalEmail } from './terms';

const MAX_DISPLAY_NAME = 100;

export interface VouchedPerson {
  email: string;
  name: string | null;
  /** How the account came to be, for its audit record. */
  method: 'federation' | 'scim';
  /** Who created it (a directory's token); anonymous for a federated sign-in. */
  actor?: Actor;
}

export async function createVouchedAccount(tx: Executor, person: VouchedPerson, now: Date, requestId: string): Promise<UserRow> {
  const user: UserRow = {
    id: randomUUID(),
    email: canonicalEmail(person.email),
    emailVerifiedAt: now,
    displayName: person.name?.trim().slice(0, MAX_DISPLAY_NAME) || null,
    locale: null,
    timezone: null,
    createdAt: now,
    updatedAt: now,
  };
  await insertUser(tx, user);
  const subject = { type: 'user', id: user.id };
  const actor = person.actor ?? ANONYMOUS;
  await recordAudit(tx, { action: 'account.created', outcome: 'success', actor, subject, requestId, data: { method: person.method }, at: now });
  await emitEvent(tx, 'identity.user.created', { user_id: user.id }, { userId: user.id }, now);
  return user;
}
