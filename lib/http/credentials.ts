import type { Actor } from '@/lib/contract/actor';
import { resolveChallengeToken, stepUpMethodsOf } from '@/lib/accounts';
import { resolveApiKey } from '@/lib/developer';
import { resolveAccessToken } from '@/lib/oidc';
import { resolveTenant } from '@/lib/organizations';
import type { TenantActor } from '@/lib/contract/tenant';
import { resolveScimToken } from '@/lib/scim';
import { resolveSessionCookie } from '@/lib/sessions';

/**
 * Where each auth term looks its credential up. A store that does not exist yet resolves nothing, so
 * its term rejects every request with 401: a declared term can never let a request pass by default.
 * Each context replaces its entry when it lands (sessions, enrollment, recovery, oidc, developer, scim).
 */
export interface CredentialStores {
  session: (cookieValue: string, now: Date) => Promise<Extract<Actor, { kind: 'session' }> | null>;
  enrollmentToken: (token: string, now: Date) => Promise<Extract<Actor, { kind: 'enrollment' }> | null>;
  recoveryToken: (token: string, now: Date) => Promise<Extract<Actor, { kind: 'recovery' }> | null>;
  oauthAccessToken: (token: string, now: Date) => Promise<Extract<Actor, { kind: 'bearer' }> | null>;
  apiKey: (token: string, now: Date) => Promise<Extract<Actor, { kind: 'bearer' }> | null>;
  scimToken: (token: string, now: Date) => Promise<Extract<Actor, { kind: 'scim' }> | null>;
  clientAuthentication: (request: Request, now: Date) => Promise<Actor | null>;
  /** Not a credential: which step-up methods an account can use (named in step_up_required). */
  stepUpMethods: (userId: string) => Promise<('passkey' | 'password')[]>;
  /** Not a credential: the caller's place in an organization (null: not an active member, or no such organization). */
  tenant: (organizationId: string, userId: string, now: Date) => Promise<TenantActor | null>;
}

const none = async () => null;

export const credentialStores: CredentialStores = {
  session: resolveSessionCookie,
  enrollmentToken: async (token, now) => {
    const row = await resolveChallengeToken('enrollment', token, now);
    return row ? { kind: 'enrollment', enrollmentId: row.id } : null;
  },
  recoveryToken: async (token, now) => {
    const row = await resolveChallengeToken('recovery', token, now);
    return row ? { kind: 'recovery', recoveryId: row.id } : null;
  },
  oauthAccessToken: resolveAccessToken,
  apiKey: resolveApiKey,
  scimToken: resolveScimToken,
  clientAuthentication: none,
  stepUpMethods: stepUpMethodsOf,
  tenant: resolveTenant,
};
