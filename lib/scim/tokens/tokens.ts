/**
 * SCIM tokens: issued by an organization admin (shown once, kept as a SHA-256), listed without the
 * secret, revoked at once. Resolving one is the pipeline's SCIM term: a malformed token is refused
 * without a database read, a revoked one resolves nothing.
 */
import { randomUUID } from 'node:crypto';
import type { Actor, ScimActor } from '@/lib/contract/actor';
import { serviceError } from '@/lib/contract/errors';
import type { Page, PageRequest } from '@/lib/contract/operation';
import type { TenantActor } from '@/lib/contract/tenant';
import { getDb, inTransaction } from '@/lib/db';
import { toPage } from '@/lib/db/keyset';
import { recordChange } from '@/lib/organizations';
import { prefixedSecretFormat } from '@/lib/platform';
import { findLiveScimTokenByHash, insertScimToken, listScimTokens, markScimTokenRevoked, touchScimToken, type ScimTokenRow } from './tokens.repo';

export const SCIM_TOKENS = prefixedSecretFormat('scim_');
/** A use is recorded at most once a minute. */
const LAST_USED_INTERVAL_MS = 60_000;

function tokenView(row: ScimTokenRow) {
  return {
    id: row.id,
    name: row.name,
    prefix: row.displayPrefix,
    status: row.revokedAt ? ('revoked' as const) : ('active' as const),
    created_at: row.createdAt.toISOString(),
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
    revoked_at: row.revokedAt?.toISOString() ?? null,
  };
}

export async function listScimTokensOf(tenant: TenantActor, page: PageRequest): Promise<Page<ReturnType<typeof tokenView>>> {
  const result = toPage(await listScimTokens(await getDb(), tenant.organizationId, page.after, page.limit + 1), page);
  return { ...result, items: result.items.map(tokenView) };
}

export async function issueScimToken(tenant: TenantActor, actor: Actor & { userId: string }, input: { name: string }, now: Date, requestId: string) {
  const token = SCIM_TOKENS.generate();
  const row: ScimTokenRow = {
    id: randomUUID(),
    organizationId: tenant.organizationId,
    name: input.name,
    tokenHash: SCIM_TOKENS.hash(token),
    displayPrefix: SCIM_TOKENS.displayPrefix(token),
    createdBy: actor.userId,
    createdAt: now,
    lastUsedAt: null,
    revokedAt: null,
  };
  await inTransaction(async (tx) => {
    await insertScimToken(tx, row);
    await recordChange(tx, tenant, actor, { action: 'scim.token.created', subject: { type: 'scim_token', id: row.id } }, now, requestId);
  });
  return { id: row.id, name: row.name, token, created_at: now.toISOString() };
}

export async function revokeScimTokenOf(tenant: TenantActor, actor: Actor, tokenId: string, now: Date, requestId: string) {
  await inTransaction(async (tx) => {
    const row = await markScimTokenRevoked(tx, tenant.organizationId, tokenId, now);
    if (!row) throw serviceError('not_found', 'No live SCIM token with this id in this organization.');
    await recordChange(tx, tenant, actor, { action: 'scim.token.revoked', subject: { type: 'scim_token', id: row.id } }, now, requestId);
  });
  return { revoked: true as const };
}

/** The pipeline's SCIM term. */
export async function resolveScimToken(token: string, now: Date): Promise<ScimActor | null> {
  if (!SCIM_TOKENS.isWellFormed(token)) return null;
  const db = await getDb();
  const row = await findLiveScimTokenByHash(db, SCIM_TOKENS.hash(token));
  if (!row) return null;
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() >= LAST_USED_INTERVAL_MS) await touchScimToken(db, row.id, now, LAST_USED_INTERVAL_MS);
  return { kind: 'scim', tokenId: row.id, organizationId: row.organizationId };
}
