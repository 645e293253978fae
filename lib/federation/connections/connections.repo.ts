import { and, eq, inArray } from 'drizzle-orm';
import type { Keyset } from '@/lib/contract/operation';
import type { Executor } from '@/lib/db';
import { keysetAfter, keysetOrder } from '@/lib/db/keyset';
import { federationConnectionDomains, federationConnections, organizationDomains } from '@/lib/db/schema';

export type ConnectionRow = typeof federationConnections.$inferSelect;
export type ServedDomain = { id: string; domain: string; status: 'pending' | 'verified' };

export async function listConnections(db: Executor, organizationId: string, after: Keyset | null, limit: number): Promise<ConnectionRow[]> {
  return db
    .select()
    .from(federationConnections)
    .where(and(eq(federationConnections.organizationId, organizationId), keysetAfter(federationConnections.createdAt, federationConnections.id, after)))
    .orderBy(...keysetOrder(federationConnections.createdAt, federationConnections.id))
    .limit(limit);
}

/** A connection of this organization by its connection_id (row-locked when `lock`). */
export async function findConnection(db: Executor, organizationId: string, connectionId: string, lock = false): Promise<ConnectionRow | null> {
  const query = db
    .select()
    .from(federationConnections)
    .where(and(eq(federationConnections.organizationId, organizationId), eq(federationConnections.connectionId, connectionId)))
    .$dynamic();
  const [row] = lock ? await query.for('update') : await query;
  return row ?? null;
}

/** Any organization's connection with this connection_id (the id is unique across the service). */
export async function findConnectionAnywhere(db: Executor, connectionId: string): Promise<ConnectionRow | null> {
  const [row] = await db.select().from(federationConnections).where(eq(federationConnections.connectionId, connectionId));
  return row ?? null;
}

export async function insertConnection(db: Executor, row: ConnectionRow, domainIds: string[]): Promise<void> {
  await db.insert(federationConnections).values(row);
  await db.insert(federationConnectionDomains).values(domainIds.map((domainId) => ({ connectionId: row.id, domainId })));
}

/** `saml`: the validated IdP metadata to sign in with from now on (activation of a SAML connection). */
export async function setConnectionStatus(
  db: Executor,
  id: string,
  status: ConnectionRow['status'],
  now: Date,
  saml: { entityId: string; ssoUrl: string; certificates: string[] } | null = null,
): Promise<ConnectionRow> {
  const samlColumns = saml ? { samlIdpEntityId: saml.entityId, samlSsoUrl: saml.ssoUrl, samlSigningCertificates: saml.certificates } : {};
  const [row] = await db
    .update(federationConnections)
    .set({ status, updatedAt: now, ...samlColumns })
    .where(eq(federationConnections.id, id))
    .returning();
  return row!;
}

export async function deleteConnection(db: Executor, id: string): Promise<void> {
  await db.delete(federationConnections).where(eq(federationConnections.id, id));
}

/**
 * The domains each connection serves. `lock` share-locks them, so a domain cannot be deleted while a
 * connection relying on it is being activated.
 */
export async function domainsServedBy(db: Executor, connectionIds: string[], lock = false): Promise<Map<string, ServedDomain[]>> {
  const served = new Map<string, ServedDomain[]>(connectionIds.map((id) => [id, []]));
  if (connectionIds.length === 0) return served;
  const query = db
    .select({
      connectionId: federationConnectionDomains.connectionId,
      id: organizationDomains.id,
      domain: organizationDomains.domain,
      status: organizationDomains.status,
    })
    .from(federationConnectionDomains)
    .innerJoin(organizationDomains, eq(organizationDomains.id, federationConnectionDomains.domainId))
    .where(inArray(federationConnectionDomains.connectionId, connectionIds))
    .orderBy(organizationDomains.domain)
    .$dynamic();
  for (const row of lock ? await query.for('share', { of: organizationDomains }) : await query) {
    served.get(row.connectionId)!.push({ id: row.id, domain: row.domain, status: row.status });
  }
  return served;
}

/** The organization's domains matching ids or names (a registration names them either way). */
export async function domainsNamed(db: Executor, organizationId: string, ids: string[], names: string[]) {
  const rows = await db
    .select({ id: organizationDomains.id, domain: organizationDomains.domain, status: organizationDomains.status })
    .from(organizationDomains)
    .where(eq(organizationDomains.organizationId, organizationId))
    .for('share');
  return rows.filter((row) => ids.includes(row.id) || names.includes(row.domain));
}
