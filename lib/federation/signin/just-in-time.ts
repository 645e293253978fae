/**
 * Who a federated sign-in is, in our terms: the federated identity is keyed by (connection, subject),
 * never by e-mail alone. On the first sign-in through a connection, the person's account is the one
 * with that e-mail (its domain is verified by the connection's organization, checked before this
 * runs, so the organization controls the mailbox) or a new one; then they join the organization as a
 * member (a revoked membership comes back; a suspended one stays suspended: that is the admins' call).
 */
import { randomUUID } from 'node:crypto';
import { canonicalEmail, createVouchedAccount } from '@/lib/accounts';
import type { Executor } from '@/lib/db';
import { joinOrganization, membershipStatusOf } from '@/lib/organizations';
import { findUserByEmail, findUserById, type UserRow } from '@/lib/users';
import type { ConnectionRow } from '../connections/connections.repo';
import { findFederatedIdentity, insertFederatedIdentity, touchFederatedIdentity } from './signin.repo';

export interface FederatedClaims {
  subject: string;
  email: string;
  name: string | null;
}

export interface FederatedPerson {
  user: UserRow;
  accountCreated: boolean;
  membership: 'joined' | 'member' | 'suspended';
}

/** The account behind the federated identity, linking or creating it on first sign-in. */
async function accountFor(tx: Executor, connection: ConnectionRow, claims: FederatedClaims, now: Date, requestId: string) {
  const identity = await findFederatedIdentity(tx, connection.id, claims.subject);
  if (identity) {
    await touchFederatedIdentity(tx, identity.id, now);
    return { user: (await findUserById(tx, identity.userId))!, accountCreated: false };
  }
  const existing = await findUserByEmail(tx, canonicalEmail(claims.email));
  const user = existing ?? (await createVouchedAccount(tx, { email: claims.email, name: claims.name, method: 'federation' }, now, requestId));
  await insertFederatedIdentity(tx, {
    id: randomUUID(),
    connectionId: connection.id,
    subject: claims.subject,
    userId: user.id,
    createdAt: now,
    lastSignInAt: now,
  });
  return { user, accountCreated: existing === null };
}

export async function federatedPerson(
  tx: Executor,
  connection: ConnectionRow,
  claims: FederatedClaims,
  now: Date,
  requestId: string,
): Promise<FederatedPerson> {
  const { user, accountCreated } = await accountFor(tx, connection, claims, now, requestId);
  const organizationId = connection.organizationId;
  const status = await membershipStatusOf(tx, organizationId, user.id);
  if (status === 'active') return { user, accountCreated, membership: 'member' };
  if (status === 'suspended') return { user, accountCreated, membership: 'suspended' };
  await joinOrganization(tx, { organizationId, userId: user.id, role: 'member', customRoleId: null }, now);
  return { user, accountCreated, membership: 'joined' };
}
