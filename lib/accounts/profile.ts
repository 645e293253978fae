/**
 * The identity profile: over the bearer API (/api/v1/me) and, for the account page, over the session
 * (PATCH /api/auth/profile). One update function serves both, so validation, event and audit cannot
 * drift apart. A bearer token sees the e-mail address only with identity.email.read; a session is
 * the person themself. Only display_name, locale and timezone can change here.
 */
import { recordAudit } from '@/lib/audit';
import type { Actor } from '@/lib/contract/actor';
import { serviceError } from '@/lib/contract/errors';
import { getDb, inTransaction } from '@/lib/db';
import { emitEvent } from '@/lib/events';
import { findUserById, updateUserProfile, type UserRow } from '@/lib/users';

type BearerActor = Extract<Actor, { kind: 'bearer' }>;
/** The account's owner, signed in (session) or through an application holding a token (bearer). */
export type ProfileActor = Extract<Actor, { kind: 'bearer' | 'session' }>;

export interface ProfileChanges {
  display_name?: string | null;
  locale?: string | null;
  timezone?: string | null;
}

function seesEmail(actor: ProfileActor): boolean {
  return actor.kind === 'session' || actor.scopes.includes('identity.email.read');
}

function profileView(user: UserRow, actor: ProfileActor) {
  return {
    id: user.id,
    display_name: user.displayName,
    locale: user.locale,
    timezone: user.timezone,
    ...(seesEmail(actor) ? { email: user.email, email_verified: true } : {}),
    updated_at: user.updatedAt.toISOString(),
  };
}

export async function readProfile(actor: BearerActor) {
  const user = await findUserById(await getDb(), actor.userId);
  if (!user) throw serviceError('unauthenticated', 'The account behind this token no longer exists.');
  return profileView(user, actor);
}

export async function updateProfile(actor: ProfileActor, changes: ProfileChanges, now: Date, requestId: string) {
  const changed = Object.keys(changes).sort();
  if (changed.length === 0) throw serviceError('invalid_request', 'Send at least one of display_name, locale, timezone.');
  const user = await inTransaction(async (tx) => {
    const updated = await updateUserProfile(
      tx,
      actor.userId,
      {
        ...('display_name' in changes ? { displayName: changes.display_name ?? null } : {}),
        ...('locale' in changes ? { locale: changes.locale ?? null } : {}),
        ...('timezone' in changes ? { timezone: changes.timezone ?? null } : {}),
      },
      now,
    );
    if (!updated) throw serviceError('unauthenticated', 'The account no longer exists.');
    // Privacy-minimised: which fields changed, never their values.
    await emitEvent(tx, 'identity.user.updated', { user_id: updated.id, changed: changed.join(',') }, { userId: updated.id }, now);
    await recordAudit(tx, {
      action: 'profile.updated',
      outcome: 'success',
      actor,
      subject: { type: 'user', id: updated.id },
      requestId,
      data: { fields: changed.join(',') },
      at: now,
    });
    return updated;
  });
  return profileView(user, actor);
}
