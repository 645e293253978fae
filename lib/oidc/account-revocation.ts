/**
 * OAuth access after the account events that say someone else may hold it (docs/decisions.md,
 * OAuth). Both run inside the caller's transaction, beside the revocation of our own sessions.
 */
import type { Executor } from '@/lib/db';
import { destroyAccountArtefacts, destroyTokensOutsideSessions, providerSessionUids } from './adapter.repo';

/** Artefacts a sign-in can issue, all of which name their provider session (`sessionUid`). */
const SESSION_BOUND_MODELS = ['AuthorizationCode', 'AccessToken', 'RefreshToken', 'DeviceCode', 'BackchannelAuthenticationRequest'];

/**
 * Recovery: the account may have been taken over, so every application loses what it holds: every
 * grant with its codes and tokens (refresh tokens included), every provider session, every pending
 * interaction the account signed in to. The person re-authorizes what they still want.
 */
export async function revokeAccountAuthorizations(db: Executor, accountId: string): Promise<number> {
  return destroyAccountArtefacts(db, accountId);
}

/**
 * Password change: whoever knew the old password may have authorized an application from a sign-in
 * of their own. Every code and token not issued to the sign-in that changes the password is revoked
 * (refresh tokens included), and consents left with nothing issued under them go too; applications
 * the person authorized from this very sign-in keep working. (Our other sessions end at the same time.)
 */
export async function revokeOtherSignInTokens(db: Executor, accountId: string, authenticatedAt: Date): Promise<number> {
  // The provider's login time is our session's authentication time (consent.ts).
  const current = await providerSessionUids(db, accountId, Math.floor(authenticatedAt.getTime() / 1000));
  return destroyTokensOutsideSessions(db, accountId, SESSION_BOUND_MODELS, current);
}
