/**
 * Developer applications (spec, Developer): OAuth clients a person registers and owns. Each service
 * function runs one transaction that writes the application's row, the provider's Client record
 * (lib/oidc, portal clients), the audit event and the outbox event together. Another owner's (or a
 * malformed) application id is not found, on every route.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { recordAudit } from '@/lib/audit';
import type { Actor } from '@/lib/contract/actor';
import { serviceError } from '@/lib/contract/errors';
import { isUuid } from '@/lib/contract/ids';
import type { EventType } from '@/lib/contract/events';
import type { Page, PageRequest } from '@/lib/contract/operation';
import { getDb, inTransaction, type Executor } from '@/lib/db';
import { toPage } from '@/lib/db/keyset';
import { emitEvent } from '@/lib/events';
import { generateClientSecret, hashClientSecret, removePortalClient, writePortalClient } from '@/lib/oidc';
import { base32 } from './api-key-format';
import {
  findApplicationByClientId,
  findOwnedApplication,
  insertApplication,
  listApplications,
  updateApplication,
  type ApplicationRow,
} from './applications.repo';
import { approvedScopesOf, certificationOf } from './certification';

type Owner = Actor & { userId: string };
export type ClientType = 'confidential' | 'public';
export type GrantType = 'authorization_code' | 'refresh_token';

export interface NewApplication {
  name: string;
  client_type: ClientType;
  redirect_uris: string[];
  scopes: string[];
  grant_types?: GrantType[];
}

export interface ApplicationChanges {
  name?: string;
  redirect_uris?: string[];
  scopes?: string[];
}

export function applicationView(row: ApplicationRow) {
  return {
    id: row.id,
    client_id: row.clientId,
    name: row.name,
    client_type: row.clientType,
    redirect_uris: row.redirectUris,
    scopes: row.scopes,
    approved_scopes: row.approvedScopes,
    grant_types: row.grantTypes,
    status: row.status,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
export type ApplicationView = ReturnType<typeof applicationView>;

const unique = <T>(list: readonly T[]) => [...new Set(list)];

/**
 * Grant types: as asked (authorization_code is always among them), or by default the code grant, plus
 * refresh tokens when the application asks for offline_access (the only way the provider issues them).
 */
function grantTypesOf(input: NewApplication): GrantType[] {
  if (input.grant_types) return unique<GrantType>(['authorization_code', ...input.grant_types]);
  return input.scopes.includes('offline_access') ? ['authorization_code', 'refresh_token'] : ['authorization_code'];
}

/** The provider's view of an application (lib/oidc portal clients). */
export const portalClientOf = (row: ApplicationRow) => ({
  clientId: row.clientId,
  name: row.name,
  clientType: row.clientType,
  redirectUris: row.redirectUris,
  grantTypes: row.grantTypes,
  approvedScopes: row.approvedScopes,
  secretHash: row.secretHash,
});

const APPLICATION_EVENTS = {
  'application.created': 'identity.application.created',
  'application.updated': 'identity.application.updated',
  'application.secret_rotated': 'identity.application.secret_rotated',
  'application.disabled': 'identity.application.disabled',
} as const satisfies Record<string, EventType>;

/** The audit row and the outbox event of a change (payload: ids only), in the change's transaction. */
async function recordApplicationChange(
  tx: Executor,
  actor: Owner,
  row: ApplicationRow,
  action: keyof typeof APPLICATION_EVENTS,
  data: Record<string, string | number>,
  now: Date,
  requestId: string,
): Promise<void> {
  await recordAudit(tx, { action, outcome: 'success', actor, subject: { type: 'application', id: row.id }, requestId, data: data as never, at: now });
  await emitEvent(tx, APPLICATION_EVENTS[action], { application_id: row.id, client_id: row.clientId }, { userId: row.userId }, now);
}

const notFound = () => serviceError('not_found', 'You have no application with this id.');

async function ownedApplication(db: Executor, actor: Owner, applicationId: string, lock = false): Promise<ApplicationRow> {
  if (!isUuid(applicationId)) throw notFound();
  const row = await findOwnedApplication(db, actor.userId, applicationId, lock);
  if (!row) throw notFound();
  return row;
}

async function enabledApplication(tx: Executor, actor: Owner, applicationId: string): Promise<ApplicationRow> {
  const row = await ownedApplication(tx, actor, applicationId, true);
  if (row.status !== 'enabled') throw serviceError('conflict', 'This application is disabled.');
  return row;
}

export async function listOwnApplications(actor: Owner, page: PageRequest): Promise<Page<ApplicationView>> {
  const result = toPage(await listApplications(await getDb(), actor.userId, page.after, page.limit + 1), page);
  return { ...result, items: result.items.map(applicationView) };
}

/**
 * Registers an application. In the portal a confidential client's secret is issued now and returned
 * once; over the bearer surface (`issueSecret: false`) no secret ever travels: the application exists,
 * but the provider refuses it (no client record) until its owner issues a secret in the portal.
 */
export async function createApplication(actor: Owner, input: NewApplication, now: Date, requestId: string, options: { issueSecret: boolean }) {
  const secret = input.client_type === 'confidential' && options.issueSecret ? generateClientSecret() : null;
  const scopes = unique(input.scopes);
  const row: ApplicationRow = {
    id: randomUUID(),
    userId: actor.userId,
    clientId: `app_${base32(randomBytes(20))}`,
    name: input.name,
    clientType: input.client_type,
    redirectUris: unique(input.redirect_uris),
    scopes,
    approvedScopes: approvedScopesOf(scopes),
    grantTypes: grantTypesOf({ ...input, scopes }),
    status: 'enabled',
    secretHash: secret ? hashClientSecret(secret) : null,
    secretRotatedAt: null,
    createdAt: now,
    updatedAt: now,
    disabledAt: null,
  };
  await inTransaction(async (tx) => {
    await insertApplication(tx, row);
    await writePortalClient(tx, portalClientOf(row));
    await recordApplicationChange(tx, actor, row, 'application.created', { client_type: row.clientType, scopes: scopes.join(' ') }, now, requestId);
  });
  return secret ? { ...applicationView(row), client_secret: secret } : applicationView(row);
}

/** Name, exact redirect URIs and scopes; new scopes go through certification again. */
export async function updateOwnApplication(actor: Owner, applicationId: string, input: ApplicationChanges, now: Date, requestId: string) {
  const fields = (['name', 'redirect_uris', 'scopes'] as const).filter((field) => input[field] !== undefined);
  if (fields.length === 0)
    throw serviceError('invalid_request', 'Send at least one of name, redirect_uris, scopes.', {
      extras: { errors: [{ path: 'body', message: 'Nothing to change.' }] },
    });
  const updated = await inTransaction(async (tx) => {
    const row = await enabledApplication(tx, actor, applicationId);
    const scopes = input.scopes ? unique(input.scopes) : row.scopes;
    const next = await updateApplication(tx, row.id, {
      name: input.name ?? row.name,
      redirectUris: input.redirect_uris ? unique(input.redirect_uris) : row.redirectUris,
      scopes,
      approvedScopes: approvedScopesOf(scopes, row.approvedScopes),
      updatedAt: now,
    });
    await writePortalClient(tx, portalClientOf(next));
    await recordApplicationChange(tx, actor, next, 'application.updated', { fields: fields.join(' ') }, now, requestId);
    return next;
  });
  return applicationView(updated);
}

/**
 * Disables the application: the provider's record goes (invalid_client from then on) with every
 * grant, code, access and refresh token of the client. A second DELETE is a conflict.
 */
export async function disableApplication(actor: Owner, applicationId: string, now: Date, requestId: string) {
  await inTransaction(async (tx) => {
    const row = await enabledApplication(tx, actor, applicationId);
    const disabled = await updateApplication(tx, row.id, { status: 'disabled', disabledAt: now, updatedAt: now, secretHash: null });
    const revoked = await removePortalClient(tx, row.clientId);
    await recordApplicationChange(tx, actor, disabled, 'application.disabled', { grants_revoked: revoked }, now, requestId);
  });
  return { id: applicationId, status: 'disabled' as const };
}

/**
 * A new secret, shown once; the old one stops working at once (no overlap: docs/decisions.md). Tokens
 * already issued stay valid until they expire; refreshing them needs the new secret.
 */
export async function rotateApplicationSecret(actor: Owner, applicationId: string, now: Date, requestId: string) {
  const secret = generateClientSecret();
  const row = await inTransaction(async (tx) => {
    const current = await enabledApplication(tx, actor, applicationId);
    if (current.clientType !== 'confidential') throw serviceError('conflict', 'A public client has no secret to rotate.');
    const next = await updateApplication(tx, current.id, { secretHash: hashClientSecret(secret), secretRotatedAt: now, updatedAt: now });
    await writePortalClient(tx, portalClientOf(next));
    await recordApplicationChange(tx, actor, next, 'application.secret_rotated', {}, now, requestId);
    return next;
  });
  return { id: row.id, client_id: row.clientId, client_secret: secret };
}

export async function applicationCertification(actor: Owner, applicationId: string) {
  return certificationOf(await ownedApplication(await getDb(), actor, applicationId));
}

/**
 * Operator review (scripts/applications-certify.ts): approves requested scopes of an application.
 * Scopes the application did not request are refused, so an approval never widens what the owner asked for.
 */
export async function approveApplicationScopes(clientId: string, scopes: string[], now: Date) {
  return inTransaction(async (tx) => {
    const row = await findApplicationByClientId(tx, clientId);
    if (!row) throw serviceError('not_found', `No application with client_id ${clientId}.`);
    const unrequested = scopes.filter((scope) => !row.scopes.includes(scope));
    if (unrequested.length) throw serviceError('invalid_request', `Not requested by the application: ${unrequested.join(' ')}`);
    const approved = row.scopes.filter((scope) => row.approvedScopes.includes(scope) || scopes.includes(scope));
    const next = await updateApplication(tx, row.id, { approvedScopes: approved, updatedAt: now });
    if (next.status === 'enabled') await writePortalClient(tx, portalClientOf(next));
    await recordAudit(tx, {
      action: 'application.updated',
      outcome: 'success',
      actor: { kind: 'anonymous' },
      subject: { type: 'application', id: row.id },
      data: { fields: 'approved_scopes' },
      at: now,
    });
    return applicationView(next);
  });
}
