/**
 * The privacy export (spec, "Privacy export content"): profile, memberships, consents, delegations,
 * session metadata, authenticator metadata and privacy-minimised activity. Never hashes, tokens,
 * cookies, codes, keys, secrets, provider bodies, IP addresses or user-agent material (session device
 * labels are derived from the user agent, so they are left out too).
 */
import { authenticatorsOf } from '@/lib/accounts';
import { activityOf } from '@/lib/audit';
import type { Actor } from '@/lib/contract/actor';
import { serviceError } from '@/lib/contract/errors';
import { getDb } from '@/lib/db';
import { consentsOf } from '@/lib/oidc';
import { allMemberships, delegationsHeldBy } from '@/lib/organizations';
import { liveSessionsOf } from '@/lib/sessions';
import { findUserById } from '@/lib/users';

const ACTIVITY_LIMIT = 500;

export async function exportPersonalData(actor: Extract<Actor, { kind: 'bearer' }>, now: Date) {
  const user = await findUserById(await getDb(), actor.userId);
  if (!user) throw serviceError('unauthenticated', 'The account behind this token no longer exists.');
  const [memberships, delegations, authenticators, sessions, consents, activity] = await Promise.all([
    allMemberships(user.id),
    delegationsHeldBy(user.id, now),
    authenticatorsOf(user.id),
    liveSessionsOf(user.id, now),
    consentsOf(user.id, now),
    activityOf(user.id, ACTIVITY_LIMIT),
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
    delegations,
    consents,
    sessions: sessions.map((s) => ({
      id: s.id,
      amr: s.amr,
      created_at: s.createdAt.toISOString(),
      authenticated_at: s.authenticatedAt.toISOString(),
      last_seen_at: s.lastSeenAt.toISOString(),
      expires_at: s.expiresAt.toISOString(),
    })),
    authenticators,
    activity: activity.map((a) => ({ action: a.action, outcome: a.outcome, at: a.createdAt.toISOString() })),
  };
}
