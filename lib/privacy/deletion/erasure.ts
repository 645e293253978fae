/**
 * Erasure of one person, across every context, in one transaction: each context erases its own data
 * through its entry point (none reaches into another's tables). Order matters only where one
 * context's rows hang off another's: directory users before memberships, the account last.
 * The audit trail keeps its rows, redacted of the person (the database's one erasure path).
 */
import { eraseAccount } from '@/lib/accounts';
import { eraseAuditPersonalData } from '@/lib/audit';
import type { Executor } from '@/lib/db';
import { eraseDeveloperDataOf } from '@/lib/developer';
import { eraseFederatedIdentitiesOf } from '@/lib/federation';
import { revokeAccountAuthorizations } from '@/lib/oidc';
import { eraseOrganizationRecordsOf } from '@/lib/organizations';
import { eraseIdempotencyRecordsOf } from '@/lib/platform';
import { eraseDirectoryUsersOf } from '@/lib/scim';
import { eraseSessionsOf } from '@/lib/sessions';
import { eraseWebhooksOf } from '@/lib/webhooks';

export interface PersonToErase {
  userId: string;
  email: string;
}

/** Every context's eraser, in the order they run; a new context with personal data adds its own here. */
export const ERASERS: readonly { context: string; erase: (tx: Executor, person: PersonToErase, now: Date) => Promise<unknown> }[] = [
  { context: 'scim', erase: (tx, person, now) => eraseDirectoryUsersOf(tx, person.userId, now) },
  { context: 'federation', erase: (tx, person) => eraseFederatedIdentitiesOf(tx, person.userId) },
  { context: 'developer', erase: (tx, person, now) => eraseDeveloperDataOf(tx, person.userId, now) },
  { context: 'webhooks', erase: (tx, person) => eraseWebhooksOf(tx, person.userId) },
  { context: 'oidc', erase: (tx, person) => revokeAccountAuthorizations(tx, person.userId) },
  { context: 'sessions', erase: (tx, person) => eraseSessionsOf(tx, person.userId) },
  { context: 'organizations', erase: (tx, person) => eraseOrganizationRecordsOf(tx, person) },
  { context: 'platform', erase: (tx, person) => eraseIdempotencyRecordsOf(tx, `user:${person.userId}`) },
  { context: 'audit', erase: (tx, person) => eraseAuditPersonalData(tx, person.userId) },
  { context: 'accounts', erase: (tx, person) => eraseAccount(tx, person) },
];

export async function erasePerson(tx: Executor, person: PersonToErase, now: Date): Promise<void> {
  for (const eraser of ERASERS) await eraser.erase(tx, person, now);
}
