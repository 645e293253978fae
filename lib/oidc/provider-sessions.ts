import type { Executor } from '@/lib/db';
import { deleteProviderSessions } from './adapter.repo';

/**
 * Ends node-oidc-provider's sessions of one sign-in of ours, inside the caller's transaction. The
 * provider's login time is our session's authentication time by construction (consent.ts), so account
 * + login time name the sign-in; access tokens bound to those sessions stop working with them.
 */
export async function endProviderSessions(db: Executor, accountId: string, authenticatedAt: Date): Promise<number> {
  return deleteProviderSessions(db, accountId, Math.floor(authenticatedAt.getTime() / 1000));
}
