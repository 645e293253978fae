import { recordAudit } from '@/lib/audit';
import type { SessionActor } from '@/lib/contract/actor';
import { serviceError } from '@/lib/contract/errors';
import { getDb, inTransaction, type Executor } from '@/lib/db';
import { destroyGrant, findModel, listAccountGrants } from './adapter.repo';

interface GrantPayload {
  accountId?: string;
  clientId?: string;
  openid?: { scope?: string };
  resources?: Record<string, string>;
  iat?: number;
}

/** What a person has consented to: client, scopes and resources per grant (no tokens). */
export async function consentsOf(userId: string, now: Date) {
  const db = await getDb();
  const grants = await listAccountGrants(db, userId, now);
  return Promise.all(
    grants.map(async (row) => {
      const payload = row.payload as GrantPayload;
      const client = payload.clientId ? await findModel(db, 'Client', payload.clientId, now) : null;
      return {
        grant_id: row.id,
        client_id: payload.clientId ?? null,
        client_name: (client?.payload.client_name as string | undefined) ?? payload.clientId ?? null,
        scopes: (payload.openid?.scope ?? '').split(' ').filter(Boolean),
        resources: Object.keys(payload.resources ?? {}),
        granted_at: payload.iat ? new Date(payload.iat * 1000).toISOString() : null,
      };
    }),
  );
}

/** What else ends with a consent, in its transaction (the API keys its application created: lib/developer). */
export type ConsentDependents = (tx: Executor, grantId: string) => Promise<void>;

/** Withdraws a consent: the grant, every code and token issued under it and its dependents are gone at once. */
export async function revokeConsent(actor: SessionActor, grantId: string, now: Date, requestId: string, endDependents?: ConsentDependents) {
  await inTransaction(async (tx) => {
    const grant = await findModel(tx, 'Grant', grantId, now);
    if (!grant || (grant.payload as GrantPayload).accountId !== actor.userId) throw serviceError('not_found', 'You have no consent with this id.');
    await destroyGrant(tx, grantId);
    await endDependents?.(tx, grantId);
    await recordAudit(tx, { action: 'oauth.consent.revoked', outcome: 'success', actor, subject: { type: 'oauth_grant', id: grantId }, requestId, at: now });
  });
  return { revoked: true as const };
}
