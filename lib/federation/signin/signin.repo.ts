import { and, asc, eq, isNull, lt } from 'drizzle-orm';
import type { Executor } from '@/lib/db';
import { shouldSweep } from '@/lib/platform';
import {
  federatedIdentities,
  federationConnectionDomains,
  federationConnections,
  federationTransactions,
  organizationDomains,
  samlAssertionReplays,
} from '@/lib/db/schema';
import type { ConnectionRow } from '../connections/connections.repo';

export type TransactionRow = typeof federationTransactions.$inferSelect;
export type FederatedIdentityRow = typeof federatedIdentities.$inferSelect;

/** The active connection serving a verified domain (the oldest, when an organization has several). */
export async function activeConnectionForDomain(db: Executor, domain: string): Promise<ConnectionRow | null> {
  const [row] = await db
    .select({ connection: federationConnections })
    .from(organizationDomains)
    .innerJoin(federationConnectionDomains, eq(federationConnectionDomains.domainId, organizationDomains.id))
    .innerJoin(federationConnections, eq(federationConnections.id, federationConnectionDomains.connectionId))
    .where(and(eq(organizationDomains.domain, domain), eq(organizationDomains.status, 'verified'), eq(federationConnections.status, 'active')))
    .orderBy(asc(federationConnections.createdAt))
    .limit(1);
  return row?.connection ?? null;
}

/** Whether the connection serves this domain, verified, right now. */
export async function connectionServesDomain(db: Executor, connectionUuid: string, domain: string): Promise<boolean> {
  const [row] = await db
    .select({ id: organizationDomains.id })
    .from(federationConnectionDomains)
    .innerJoin(organizationDomains, eq(organizationDomains.id, federationConnectionDomains.domainId))
    .where(
      and(eq(federationConnectionDomains.connectionId, connectionUuid), eq(organizationDomains.domain, domain), eq(organizationDomains.status, 'verified')),
    );
  return row !== undefined;
}

export async function insertTransaction(db: Executor, row: TransactionRow): Promise<void> {
  await db.insert(federationTransactions).values(row);
}

/**
 * Consumes the transaction once: the conditional update lets exactly one callback have it, however
 * many arrive with the same state. Expired ones are not consumed (and answer as unknown).
 */
export async function consumeTransaction(db: Executor, stateHash: string, now: Date): Promise<TransactionRow | null> {
  const [row] = await db
    .update(federationTransactions)
    .set({ consumedAt: now })
    .where(and(eq(federationTransactions.stateHash, stateHash), isNull(federationTransactions.consumedAt)))
    .returning();
  return row ?? null;
}

/** Transactions past their expiry are of no use to anyone (the sweep calls this). */
export async function deleteExpiredTransactions(db: Executor, now: Date): Promise<number> {
  const rows = await db
    .delete(federationTransactions)
    .where(lt(federationTransactions.expiresAt, now))
    .returning({ stateHash: federationTransactions.stateHash });
  return rows.length;
}

export async function findConnectionByUuid(db: Executor, id: string): Promise<ConnectionRow | null> {
  const [row] = await db.select().from(federationConnections).where(eq(federationConnections.id, id));
  return row ?? null;
}

export async function findFederatedIdentity(db: Executor, connectionUuid: string, subject: string): Promise<FederatedIdentityRow | null> {
  const [row] = await db
    .select()
    .from(federatedIdentities)
    .where(and(eq(federatedIdentities.connectionId, connectionUuid), eq(federatedIdentities.subject, subject)))
    .for('update');
  return row ?? null;
}

export async function insertFederatedIdentity(db: Executor, row: FederatedIdentityRow): Promise<void> {
  await db.insert(federatedIdentities).values(row);
}

export async function touchFederatedIdentity(db: Executor, id: string, now: Date): Promise<void> {
  await db.update(federatedIdentities).set({ lastSignInAt: now }).where(eq(federatedIdentities.id, id));
}

/** Records an assertion id until it expires; false when it was seen before (a replay). */
export async function recordAssertion(db: Executor, row: typeof samlAssertionReplays.$inferInsert, now: Date): Promise<boolean> {
  if (shouldSweep()) await db.delete(samlAssertionReplays).where(lt(samlAssertionReplays.expiresAt, now));
  const inserted = await db.insert(samlAssertionReplays).values(row).onConflictDoNothing().returning({ hash: samlAssertionReplays.assertionIdHash });
  return inserted.length === 1;
}
