import { and, count, eq, ne, sql } from 'drizzle-orm';
import type { Keyset } from '@/lib/contract/operation';
import type { Executor } from '@/lib/db';
import { keysetAfter, keysetOrder } from '@/lib/db/keyset';
import { federationConnectionDomains, federationConnections, organizationDomains } from '@/lib/db/schema';

export type DomainRow = typeof organizationDomains.$inferSelect;

/** The organization's domains, newest first; `verifiedOnly` for the bearer read. */
export async function listDomains(db: Executor, organizationId: string, after: Keyset | null, limit: number, verifiedOnly = false): Promise<DomainRow[]> {
  return db
    .select()
    .from(organizationDomains)
    .where(
      and(
        eq(organizationDomains.organizationId, organizationId),
        verifiedOnly ? eq(organizationDomains.status, 'verified') : undefined,
        keysetAfter(organizationDomains.createdAt, organizationDomains.id, after),
      ),
    )
    .orderBy(...keysetOrder(organizationDomains.createdAt, organizationDomains.id))
    .limit(limit);
}

/** A domain of this organization, row-locked for the rest of the transaction when `lock`. */
export async function findDomain(db: Executor, organizationId: string, domainId: string, lock = false): Promise<DomainRow | null> {
  const query = db
    .select()
    .from(organizationDomains)
    .where(and(eq(organizationDomains.organizationId, organizationId), eq(organizationDomains.id, domainId)))
    .$dynamic();
  const [row] = lock ? await query.for('update') : await query;
  return row ?? null;
}

export async function findDomainByName(db: Executor, organizationId: string, domain: string): Promise<DomainRow | null> {
  const [row] = await db
    .select()
    .from(organizationDomains)
    .where(and(eq(organizationDomains.organizationId, organizationId), eq(organizationDomains.domain, domain)));
  return row ?? null;
}

/** Whether another organization has verified the name (at most one can: a unique index). */
export async function verifiedElsewhere(db: Executor, organizationId: string, domain: string): Promise<boolean> {
  const [row] = await db
    .select({ id: organizationDomains.id })
    .from(organizationDomains)
    .where(and(eq(organizationDomains.domain, domain), eq(organizationDomains.status, 'verified'), ne(organizationDomains.organizationId, organizationId)));
  return row !== undefined;
}

export async function insertDomain(db: Executor, row: DomainRow): Promise<void> {
  await db.insert(organizationDomains).values(row);
}

export async function markChecked(db: Executor, organizationId: string, domainId: string, change: Partial<DomainRow>, now: Date): Promise<DomainRow> {
  const [row] = await db
    .update(organizationDomains)
    .set({ ...change, lastCheckedAt: now, updatedAt: now })
    .where(and(eq(organizationDomains.organizationId, organizationId), eq(organizationDomains.id, domainId)))
    .returning();
  return row!;
}

/** Connections that serve the domain, by status (a domain is protected while an active one does). */
export async function connectionsServing(db: Executor, domainId: string): Promise<{ active: number; total: number }> {
  const rows = await db
    .select({ status: federationConnections.status, n: count() })
    .from(federationConnectionDomains)
    .innerJoin(federationConnections, eq(federationConnections.id, federationConnectionDomains.connectionId))
    .where(eq(federationConnectionDomains.domainId, domainId))
    .groupBy(federationConnections.status);
  return { active: rows.find((r) => r.status === 'active')?.n ?? 0, total: rows.reduce((sum, r) => sum + r.n, 0) };
}

/** Deletes the domain and its links to connections that are not active (the guard checked those). */
export async function deleteDomain(db: Executor, organizationId: string, domainId: string): Promise<void> {
  await db.delete(federationConnectionDomains).where(eq(federationConnectionDomains.domainId, domainId));
  await db.delete(organizationDomains).where(and(eq(organizationDomains.organizationId, organizationId), eq(organizationDomains.id, domainId)));
}

/** Claims of one name serialise (two organizations verifying it at once: one wins, the other is told). */
export async function lockName(tx: Executor, domain: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`domain:${domain}`}))`);
}
