/**
 * The privacy export (spec, "Privacy export content"): profile, memberships, consents, delegations,
 * session metadata, authenticator metadata and privacy-minimised activity. Never hashes, tokens,
 * cookies, codes, keys, secrets, provider bodies, IP addresses or user-agent material (session device
 * labels are derived from the user agent, so they are left out too).
 */
import { listUserActivity } from '@/lib/audit/activity.repo';
import type { Actor } from '@/lib/contract/actor';
import { serviceError } from '@/lib/contract/errors';
import { getDb } from '@/lib/db';
import { consentsOf } from '@/lib/oidc/consents';
import { allMemberships } from '@/lib/organizations/memberships';
import { listLiveSessions } from '@/lib/sessions/sessions.repo';
import { passkeyView } from './passkey-flows';
import { listUserPasskeys } from './passkeys.repo';
import { findPasswordCredential } from './passwords.repo';
import { findUserById } from './users.repo';

const ACTIVITY_LIMIT = 500;

export async function exportPersonalData(actor: Extract<Actor, { kind: 'bearer' }>, now: Date) {
  const db = await getDb();
  const user = await findUserById(db, actor.userId);
  if (!user) throw serviceError('unauthenticated', 'The account behind this token no longer exists.');
  const [memberships, passkeys, password, sessions, consents, activity] = await Promise.all([
    allMemberships(user.id),
    listUserPasskeys(db, user.id),
    findPasswordCredential(db, user.id),
    listLiveSessions(db, user.id, now),
    consentsOf(user.id, now),
    listUserActivity(db, user.id, ACTIVITY_LIMIT),
  ]);
  return {
    exported_at: now.toISOString(),
    profile: {
      id: user.id,
      email: user.email,
      email_verified_at: user.emailVerifiedAt.toISOString(),
      display_name: user.displayName,
      locale: user.locale,
      timezone: user.timezone,
      created_at: user.createdAt.toISOString(),
      updated_at: user.updatedAt.toISOString(),
    },
    memberships,
    // Delegated administration is not built yet: nobody can hold a delegation.
    delegations: [],
    consents,
    sessions: sessions.map((s) => ({
      id: s.id,
      amr: s.amr,
      created_at: s.createdAt.toISOString(),
      authenticated_at: s.authenticatedAt.toISOString(),
      last_seen_at: s.lastSeenAt.toISOString(),
      expires_at: s.expiresAt.toISOString(),
    })),
    authenticators: {
      passkeys: passkeys.map(passkeyView),
      password: password ? { set: true, updated_at: password.updatedAt.toISOString() } : { set: false, updated_at: null },
    },
    activity: activity.map((a) => ({ action: a.action, outcome: a.outcome, at: a.createdAt.toISOString() })),
  };
}
