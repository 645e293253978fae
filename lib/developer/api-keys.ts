/**
 * API keys: owner-bound, scoped bearer credentials for the developer API (spec, Developer). The key is
 * shown once, at creation; only its SHA-256 is kept. Revocation and expiry take effect on the very
 * next request (the resolver reads the row every time); the last-used time is written at most once a
 * minute per key. A key an application created (agent-api-keys.ts) also ends with its consent.
 */
import { randomUUID } from 'node:crypto';
import { recordAudit } from '@/lib/audit';
import type { Actor, SessionActor } from '@/lib/contract/actor';
import { serviceError } from '@/lib/contract/errors';
import { isUuid } from '@/lib/contract/ids';
import { API_KEY_SCOPES, type ApiKeyScope } from '@/lib/contract/scopes';
import type { Page, PageRequest } from '@/lib/contract/operation';
import { getDb, inTransaction, type Executor } from '@/lib/db';
import { emitEvent } from '@/lib/events';
import { toPage } from '@/lib/db/keyset';
import { grantIsLive } from '@/lib/oidc';
import { agentKeyBound, agentOriginOf } from './agent-api-keys';
import { displayPrefix, generateApiKey, hashApiKey, isWellFormedApiKey } from './api-key-format';
import {
  countLiveApiKeys,
  findApiKeyByHash,
  findOwnedApiKey,
  insertApiKey,
  listApiKeys,
  lockOwner,
  markApiKeyRevoked,
  markGrantApiKeysRevoked,
  touchApiKey,
  type ApiKeyRow,
} from './api-keys.repo';

export { API_KEY_SCOPES, type ApiKeyScope };
/** Keys that still authenticate, per owner. */
export const MAX_LIVE_API_KEYS = 50;
/** The furthest an expiry may reach. */
export const MAX_API_KEY_LIFETIME_MS = 365 * 24 * 60 * 60 * 1000;
/** last_used_at is written at most once per this interval per key. */
export const LAST_USED_INTERVAL_MS = 60 * 1000;

type BearerActor = Extract<Actor, { kind: 'bearer' }>;

/** `grantLive`: for a key an application created, whether its consent still exists (a gone one is revoked). */
export function apiKeyStatus(row: ApiKeyRow, now: Date, grantLive = true): 'active' | 'expired' | 'revoked' {
  if (row.revokedAt || (row.grantId && !grantLive)) return 'revoked';
  if (row.expiresAt && row.expiresAt <= now) return 'expired';
  return 'active';
}

/** Whether the consent of each agent-created key still exists (one look-up per distinct grant). */
async function liveGrantsOf(rows: ApiKeyRow[], now: Date): Promise<Set<string>> {
  const grants = [...new Set(rows.flatMap((row) => (row.grantId && !row.revokedAt ? [row.grantId] : [])))];
  const live = await Promise.all(grants.map(async (grant) => ((await grantIsLive(grant, now)) ? [grant] : [])));
  return new Set(live.flat());
}

/** Who created the key: the person (portal), or an application they authorized, under which consent. */
function createdBy(row: ApiKeyRow) {
  return row.createdByClientId && row.grantId
    ? { kind: 'application' as const, client_id: row.createdByClientId, grant_id: row.grantId }
    : { kind: 'person' as const, client_id: null, grant_id: null };
}

const iso = (date: Date | null) => date?.toISOString() ?? null;

export function apiKeyView(row: ApiKeyRow, now: Date, grantLive = true) {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: row.scopes,
    created_at: row.createdAt.toISOString(),
    expires_at: iso(row.expiresAt),
    last_used_at: iso(row.lastUsedAt),
    status: apiKeyStatus(row, now, grantLive),
    created_by: createdBy(row),
  };
}

/** The owner's keys (never the key itself), newest first; a bearer read adds `authentication` and `scopes`. */
export async function listOwnApiKeys(actor: Actor & { userId: string }, page: PageRequest, now: Date): Promise<Page<ReturnType<typeof apiKeyView>>> {
  const result = toPage(await listApiKeys(await getDb(), actor.userId, page.after, page.limit + 1), page);
  const liveGrants = await liveGrantsOf(result.items, now);
  const items = result.items.map((row) => apiKeyView(row, now, !row.grantId || liveGrants.has(row.grantId)));
  return { ...result, items };
}

export interface NewApiKey {
  name: string;
  scopes: ApiKeyScope[];
  expires_at?: Date;
}

function expiryError(message: string): never {
  throw serviceError('invalid_request', message, { extras: { errors: [{ path: 'body.expires_at', message }] } });
}

/**
 * The owner creates a key in the portal (session) or through an application they authorized (bearer:
 * MCP); the application's key is bound to its consent, with a bounded expiry and scopes (agent-api-keys.ts).
 */
export async function createApiKey(actor: Actor & { userId: string }, input: NewApiKey, now: Date, requestId: string) {
  const agent = agentOriginOf(actor);
  const bound = agent
    ? await agentKeyBound(agent, input.scopes, now)
    : { latest: new Date(now.getTime() + MAX_API_KEY_LIFETIME_MS), refusal: 'An API key lasts at most one year.' };
  if (input.expires_at && input.expires_at <= now) expiryError('The expiry must be in the future.');
  // Refused, never quietly shortened: the caller learns the limit.
  if (input.expires_at && input.expires_at > bound.latest) expiryError(bound.refusal);
  // The person's key may live until revoked; an application's lasts as long as it may unless it asks for less.
  const expiresAt = input.expires_at ?? (agent ? bound.latest : null);
  // Catalogue order, each scope once.
  const scopes = API_KEY_SCOPES.filter((scope) => input.scopes.includes(scope));
  const key = generateApiKey();
  const row: ApiKeyRow = {
    id: randomUUID(),
    userId: actor.userId,
    name: input.name,
    keyHash: hashApiKey(key),
    prefix: displayPrefix(key),
    scopes,
    createdAt: now,
    expiresAt,
    lastUsedAt: null,
    revokedAt: null,
    createdByClientId: agent?.clientId ?? null,
    grantId: agent?.grantId ?? null,
  };
  await inTransaction(async (tx) => {
    if (!(await lockOwner(tx, actor.userId))) throw serviceError('unauthenticated', 'Sign in first.');
    if ((await countLiveApiKeys(tx, actor.userId, now)) >= MAX_LIVE_API_KEYS) {
      throw serviceError('conflict', `An account holds at most ${MAX_LIVE_API_KEYS} live API keys; revoke one first.`);
    }
    await insertApiKey(tx, row);
    await recordAudit(tx, {
      action: 'api_key.created',
      outcome: 'success',
      actor,
      subject: { type: 'api_key', id: row.id },
      requestId,
      data: { scopes: scopes.join(' '), client_id: row.createdByClientId, grant_id: row.grantId },
      at: now,
    });
    const creator = { client_id: row.createdByClientId, grant_id: row.grantId };
    await emitEvent(tx, 'identity.api_key.created', { api_key_id: row.id, scopes: scopes.join(' '), ...creator }, { userId: actor.userId }, now);
  });
  return { id: row.id, api_key: key, name: row.name, scopes, created_at: now.toISOString(), expires_at: iso(expiresAt) };
}

/** Revokes one of the owner's keys; another owner's (or an unknown) id is not found; twice is a conflict. */
export async function revokeApiKey(actor: SessionActor, apiKeyId: string, now: Date, requestId: string) {
  const notFound = () => serviceError('not_found', 'You have no API key with this id.');
  if (!isUuid(apiKeyId)) throw notFound();
  await inTransaction(async (tx) => {
    const row = await findOwnedApiKey(tx, actor.userId, apiKeyId);
    if (!row) throw notFound();
    if (row.revokedAt) throw serviceError('conflict', 'This API key is already revoked.');
    await markApiKeyRevoked(tx, actor.userId, row.id, now);
    await recordRevocation(tx, actor, row, 'owner', now, requestId);
  });
  return { revoked: true as const };
}

async function recordRevocation(tx: Executor, actor: SessionActor, row: ApiKeyRow, reason: 'owner' | 'consent_revoked', now: Date, requestId: string) {
  const scopes = row.scopes.join(' ');
  await recordAudit(tx, {
    action: 'api_key.revoked',
    outcome: 'success',
    actor,
    subject: { type: 'api_key', id: row.id },
    requestId,
    data: { scopes, reason },
    at: now,
  });
  await emitEvent(tx, 'identity.api_key.revoked', { api_key_id: row.id, scopes, reason }, { userId: actor.userId }, now);
}

/**
 * The person withdrew a consent (inside that transaction): the keys its application created are
 * marked revoked, so the portal, the audit log and webhook subscribers see it. (They already stopped
 * authenticating with the grant: resolveApiKey.)
 */
export async function revokeGrantApiKeys(tx: Executor, actor: SessionActor, grantId: string, now: Date, requestId: string): Promise<void> {
  for (const row of await markGrantApiKeysRevoked(tx, actor.userId, grantId, now)) await recordRevocation(tx, actor, row, 'consent_revoked', now, requestId);
}

/**
 * The pipeline's API-key term: a malformed key or a wrong checksum is refused without a database read;
 * otherwise the hash is looked up, and an expired or revoked key resolves nothing, nor does a key an
 * application created once its consent is gone (every way OAuth access ends removes the grant).
 */
export async function resolveApiKey(key: string, now: Date): Promise<BearerActor | null> {
  if (!isWellFormedApiKey(key)) return null;
  const db = await getDb();
  const row = await findApiKeyByHash(db, hashApiKey(key));
  if (!row || apiKeyStatus(row, now) !== 'active') return null;
  if (row.grantId && !(await grantIsLive(row.grantId, now))) return null;
  // The row just read says whether a use is due: most requests need no second round trip at all.
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() >= LAST_USED_INTERVAL_MS) await touchApiKey(db, row.id, now, LAST_USED_INTERVAL_MS);
  return {
    kind: 'bearer',
    credential: 'api_key',
    credentialId: row.id,
    userId: row.userId,
    clientId: null,
    scopes: row.scopes,
    organizationId: null,
    grantId: row.grantId,
  };
}
