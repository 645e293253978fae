/**
 * Federation connections of an organization: register an OpenID provider for its verified domains,
 * activate it once the provider validates, disable and delete it, and check its health. The client
 * secret is sealed at rest and never leaves the service; every read is scoped to the tenant.
 */
import { randomUUID } from 'node:crypto';
import type { Actor } from '@/lib/contract/actor';
import { isUuid } from '@/lib/contract/ids';
import type { Page, PageRequest } from '@/lib/contract/operation';
import type { TenantActor } from '@/lib/contract/tenant';
import { getConfig } from '@/lib/config';
import { getDb, inTransaction, type Executor } from '@/lib/db';
import { toPage } from '@/lib/db/keyset';
import { decide, recordChange, transitionFor } from '@/lib/organizations';
import { sealSecret } from '@/lib/platform';
import { normalizedDomain } from '../domains/domain-names';
import { checkProvider, type ProviderCheck } from '../providers/provider-check';
import { spValues } from '../saml/service-provider';
import { CLIENT_SECRET_PURPOSE } from '../providers/oidc-client';
import {
  deleteConnection,
  domainsNamed,
  domainsServedBy,
  findConnection,
  findConnectionAnywhere,
  insertConnection,
  listConnections,
  setConnectionStatus,
  type ConnectionRow,
  type ServedDomain,
} from './connections.repo';
import { CONNECTION_TRANSITIONS, noSuchConnection, type ConnectionEffects } from './transitions';

/** Always asked for: the ID token must name the person's verified e-mail. */
const REQUIRED_SCOPES = ['openid', 'email'];

export const federationCallbackUri = () => `${getConfig().baseUrl}/api/auth/federation/oidc/callback`;

export function connectionView(row: ConnectionRow, domains: ServedDomain[]) {
  return {
    id: row.id,
    connection_id: row.connectionId,
    protocol: row.protocol,
    display_name: row.displayName,
    status: row.status,
    domains: domains.map(({ id, domain }) => ({ id, domain })),
    issuer: row.issuer,
    client_id: row.clientId,
    scopes: row.scopes,
    ...(row.protocol === 'oidc' ? { redirect_uri: federationCallbackUri() } : { sp: spValues(row.connectionId), metadata_url: row.samlMetadataUrl }),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
export type ConnectionView = ReturnType<typeof connectionView>;

async function connectionOf(db: Executor, tenant: TenantActor, connectionId: string, lock = false): Promise<ConnectionRow> {
  const row = await findConnection(db, tenant.organizationId, connectionId, lock);
  if (!row) throw noSuchConnection();
  return row;
}

async function viewOf(db: Executor, row: ConnectionRow): Promise<ConnectionView> {
  return connectionView(row, (await domainsServedBy(db, [row.id])).get(row.id)!);
}

async function record(tx: Executor, tenant: TenantActor, actor: Actor, effects: ConnectionEffects, row: ConnectionRow, now: Date, requestId: string) {
  if (!effects.audit) return;
  const data =
    effects.audit === 'federation.connection.registered' ? { connection_id: row.connectionId, protocol: row.protocol } : { connection_id: row.connectionId };
  const event = effects.emits[0] ? { type: effects.emits[0], payload: { connection_id: row.connectionId, protocol: row.protocol } } : undefined;
  await recordChange(tx, tenant, actor, { action: effects.audit, subject: { type: 'federation_connection', id: row.id }, data, event }, now, requestId);
}

export async function listConnectionsOf(tenant: TenantActor, page: PageRequest): Promise<Page<ConnectionView>> {
  const db = await getDb();
  const result = toPage(await listConnections(db, tenant.organizationId, page.after, page.limit + 1), page);
  const served = await domainsServedBy(
    db,
    result.items.map((row) => row.id),
  );
  return { ...result, items: result.items.map((row) => connectionView(row, served.get(row.id)!)) };
}

interface CommonRegistration {
  connection_id: string;
  display_name: string;
  domains: string[];
}
export type Registration =
  | (CommonRegistration & { protocol: 'oidc'; issuer: string; client_id: string; client_secret: string; scopes?: string[] })
  | (CommonRegistration & { protocol: 'saml'; metadata_xml?: string; metadata_url?: string });

/** The protocol's own columns (the others stay null). */
function protocolColumns(input: Registration) {
  const none = { issuer: null, clientId: null, clientSecretSealed: null, scopes: null, samlMetadataXml: null, samlMetadataUrl: null };
  const saml = { samlIdpEntityId: null, samlSsoUrl: null, samlSigningCertificates: null };
  if (input.protocol === 'saml') return { ...none, ...saml, samlMetadataXml: input.metadata_xml ?? null, samlMetadataUrl: input.metadata_url ?? null };
  return {
    ...none,
    ...saml,
    issuer: input.issuer,
    clientId: input.client_id,
    clientSecretSealed: sealSecret(input.client_secret, CLIENT_SECRET_PURPOSE),
    scopes: [...new Set([...REQUIRED_SCOPES, ...(input.scopes ?? [])])],
  };
}

/** The named domains that are not verified domains of this organization (as the caller wrote them). */
function unverified(requested: string[], found: { id: string; domain: string; status: string }[]): string[] {
  return requested.filter((name) => !found.some((d) => d.status === 'verified' && (d.id === name || d.domain === normalizedDomain(name))));
}

export async function registerConnection(tenant: TenantActor, actor: Actor, input: Registration, now: Date, requestId: string): Promise<ConnectionView> {
  return inTransaction(async (tx) => {
    const existing = await findConnectionAnywhere(tx, input.connection_id);
    const ids = input.domains.filter(isUuid);
    const names = input.domains.map(normalizedDomain).filter((d): d is string => d !== null);
    const found = await domainsNamed(tx, tenant.organizationId, ids, names);
    const move = await decide(CONNECTION_TRANSITIONS, existing ? 'registered' : 'none', 'register', { unverifiedDomains: unverified(input.domains, found) });
    const row: ConnectionRow = {
      id: randomUUID(),
      organizationId: tenant.organizationId,
      connectionId: input.connection_id,
      protocol: input.protocol,
      displayName: input.display_name,
      status: 'registered',
      ...protocolColumns(input),
      createdAt: now,
      updatedAt: now,
    };
    await insertConnection(tx, row, [...new Set(found.map((d) => d.id))]);
    await record(tx, tenant, actor, move.effects, row, now, requestId);
    return viewOf(tx, row);
  });
}

/** Validates the provider first (outside the transaction), then moves the connection. */
export async function changeConnection(
  tenant: TenantActor,
  actor: Actor,
  connectionId: string,
  input: { status: 'active' | 'disabled' },
  now: Date,
  requestId: string,
) {
  const event = input.status === 'active' ? 'activate' : 'disable';
  const current = await connectionOf(await getDb(), tenant, connectionId);
  const needsCheck = event === 'activate' && current.status !== 'active';
  const provider: ProviderCheck = needsCheck ? await checkProvider(current, now) : { ok: false, classification: 'not_checked' };
  return inTransaction(async (tx) => {
    const row = await connectionOf(tx, tenant, connectionId, true);
    const domains = (await domainsServedBy(tx, [row.id], true)).get(row.id)!;
    const facts = { unverifiedDomains: domains.filter((d) => d.status !== 'verified').map((d) => d.domain), provider };
    const move =
      event === 'activate'
        ? await decide(CONNECTION_TRANSITIONS, row.status, 'activate', facts)
        : await decide(CONNECTION_TRANSITIONS, row.status, 'disable', {});
    if (move.to === row.status) return connectionView(row, domains);
    // SAML signs in with exactly the metadata validated here.
    const saml = move.to === 'active' && provider.ok ? provider.saml : null;
    const changed = await setConnectionStatus(tx, row.id, move.to === 'active' ? 'active' : 'disabled', now, saml);
    await record(tx, tenant, actor, move.effects, changed, now, requestId);
    return connectionView(changed, domains);
  });
}

export async function deleteConnectionOf(tenant: TenantActor, actor: Actor, connectionId: string, now: Date, requestId: string) {
  await inTransaction(async (tx) => {
    const row = await connectionOf(tx, tenant, connectionId, true);
    const move = transitionFor(CONNECTION_TRANSITIONS, row.status, 'delete');
    await deleteConnection(tx, row.id);
    await record(tx, tenant, actor, move.effects, row, now, requestId);
  });
  return { deleted: true as const };
}

/** The activation check again, changing nothing: a classification and whether it passed. */
export async function connectionHealth(tenant: TenantActor, connectionId: string, now: Date) {
  const row = await connectionOf(await getDb(), tenant, connectionId);
  const check = await checkProvider(row, now);
  return { connection_id: row.connectionId, healthy: check.ok, classification: check.ok ? 'ok' : check.classification, checked_at: now.toISOString() };
}
