import { getDb } from '@/lib/db';
import { listAccountGrants } from './adapter.repo';

interface GrantPayload {
  clientId?: string;
  openid?: { scope?: string };
  resources?: Record<string, string>;
  iat?: number;
}

/** What a person has consented to: client, scopes and resources per grant (no tokens). */
export async function consentsOf(userId: string, now: Date) {
  const grants = await listAccountGrants(await getDb(), userId, now);
  return grants.map((row) => {
    const payload = row.payload as GrantPayload;
    return {
      grant_id: row.id,
      client_id: payload.clientId ?? null,
      scopes: (payload.openid?.scope ?? '').split(' ').filter(Boolean),
      resources: Object.keys(payload.resources ?? {}),
      granted_at: payload.iat ? new Date(payload.iat * 1000).toISOString() : null,
    };
  });
}
