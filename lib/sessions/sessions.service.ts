import { randomUUID } from 'node:crypto';
import { getConfig } from '@/lib/config';
import type { SessionActor } from '@/lib/contract/actor';
import { serviceError } from '@/lib/contract/errors';
import type { SessionCookieInstruction } from '@/lib/contract/operation';
import { getDb, type Executor } from '@/lib/db';
import { userView, type UserRow } from '@/lib/users';
import { csrfTokenFor } from './csrf';
import { newSessionSecret, sealSessionCookie, secretMatches, unsealSessionCookie } from './session-cookie';
import {
  findSession,
  findSessionWithUser,
  insertSession,
  listLiveSessions,
  recordStepUpWithNewSecret,
  revokeOwnedSession,
  revokeUserSessions,
  touchSession,
  type RevokedSession,
  type SessionRow,
  deleteSessionsOf,
} from './sessions.repo';

export type Amr = 'hwk' | 'pwd' | 'otp' | 'fed';

/** last_seen_at is written at most once a minute per session: idle expiry needs no finer grain. */
const TOUCH_INTERVAL_MS = 60_000;

function idleExpiry(row: SessionRow): Date {
  return new Date(row.lastSeenAt.getTime() + getConfig().ttl.sessionIdle * 1000);
}

export function sessionView(user: UserRow, row: SessionRow, now: Date = row.lastSeenAt) {
  return {
    user: userView(user),
    session: {
      id: row.id,
      created_at: row.createdAt.toISOString(),
      authenticated_at: row.authenticatedAt.toISOString(),
      expires_at: row.expiresAt.toISOString(),
      idle_expires_at: idleExpiry(row).toISOString(),
      amr: row.amr,
      step_up_at: row.stepUpAt?.toISOString() ?? null,
      step_up_method: row.stepUpMethod,
      step_up_age_seconds: row.stepUpAt ? Math.max(0, Math.floor((now.getTime() - row.stepUpAt.getTime()) / 1000)) : null,
    },
    csrf_token: csrfTokenFor(row.id),
  };
}

export interface IssuedSession {
  view: ReturnType<typeof sessionView>;
  cookie: SessionCookieInstruction;
}

/**
 * Always a new session id (no fixation). A passkey or password sign-in is itself a fresh
 * re-authentication, so it also starts the step-up window; an e-mail code does not.
 */
export async function issueSession(
  db: Executor,
  input: { user: UserRow; amr: Amr[]; device: string; binding?: string; now: Date; stepUpMethod?: 'passkey' | 'password' },
): Promise<IssuedSession> {
  const { secret, secretHash } = newSessionSecret();
  const row: SessionRow = {
    id: randomUUID(),
    userId: input.user.id,
    secretHash,
    amr: input.amr,
    createdAt: input.now,
    authenticatedAt: input.now,
    lastSeenAt: input.now,
    expiresAt: new Date(input.now.getTime() + getConfig().ttl.sessionAbsolute * 1000),
    stepUpAt: input.stepUpMethod ? input.now : null,
    stepUpMethod: input.stepUpMethod ?? null,
    deviceLabel: input.device,
    bindingHash: input.binding ?? null,
    revokedAt: null,
    revokedReason: null,
  };
  await insertSession(db, row);
  const sealed = await sealSessionCookie({ sid: row.id, secret });
  return { view: sessionView(input.user, row), cookie: { set: sealed, maxAgeSeconds: getConfig().ttl.sessionAbsolute } };
}

/**
 * What authentication read for a session actor, kept for the rest of that request: the operations
 * that show the session (getSession) use it instead of reading the rows again. Keyed by the actor
 * object the pipeline holds for one request, so it is dropped with the request; the Actor itself
 * stays the small principal every auth term produces.
 */
const loadedFor = new WeakMap<SessionActor, { session: SessionRow; user: UserRow }>();

/**
 * The session auth term: a live, unrevoked, unexpired session whose secret matches. One round trip
 * (the session joined with its user), plus the last_seen_at touch when it is due.
 */
export async function resolveSessionCookie(cookie: string, now: Date): Promise<SessionActor | null> {
  const payload = await unsealSessionCookie(cookie);
  if (!payload) return null;
  const db = await getDb();
  const found = await findSessionWithUser(db, payload.sid);
  if (!found || !secretMatches(payload.secret, found.session.secretHash)) return null;
  let row = found.session;
  if (row.revokedAt || row.expiresAt <= now || idleExpiry(row) <= now) return null;
  const lastSeenAt = row.lastSeenAt;
  if (now.getTime() - row.lastSeenAt.getTime() > TOUCH_INTERVAL_MS) {
    await touchSession(db, row.id, now);
    row = { ...row, lastSeenAt: now };
  }
  const actor: SessionActor = {
    kind: 'session',
    userId: row.userId,
    sessionId: row.id,
    authenticatedAt: row.authenticatedAt,
    stepUpAt: row.stepUpAt,
    stepUpMethod: row.stepUpMethod,
    amr: row.amr,
    lastSeenAt,
    bindingHash: row.bindingHash,
  };
  loadedFor.set(actor, { session: row, user: found.user });
  return actor;
}

/** The session view of the request's session: what authentication read, else (an actor made elsewhere) one read. */
export async function currentSession(actor: SessionActor, now: Date) {
  const loaded = loadedFor.get(actor) ?? (await findSessionWithUser(await getDb(), actor.sessionId));
  if (!loaded) throw serviceError('unauthenticated', 'Sign in first.');
  return sessionView(loaded.user, loaded.session, now);
}

export async function listSessions(actor: SessionActor, now: Date) {
  const rows = await listLiveSessions(await getDb(), actor.userId, now);
  return {
    sessions: rows
      .filter((row) => idleExpiry(row) > now)
      .map((row) => ({
        id: row.id,
        current: row.id === actor.sessionId,
        device: row.deviceLabel ?? 'Unknown device',
        amr: row.amr,
        created_at: row.createdAt.toISOString(),
        authenticated_at: row.authenticatedAt.toISOString(),
        last_seen_at: row.lastSeenAt.toISOString(),
        expires_at: row.expiresAt.toISOString(),
      })),
  };
}

/** Revokes one of the user's own live sessions; null when it is not theirs or already revoked. */
export async function revokeOwnSession(db: Executor, userId: string, sessionId: string, reason: string, now: Date): Promise<RevokedSession | null> {
  return revokeOwnedSession(db, sessionId, userId, now, reason);
}

/** Revokes every live session of a user (optionally but one) and says which. */
export async function revokeSessionsOf(db: Executor, userId: string, reason: string, now: Date, except?: string): Promise<RevokedSession[]> {
  return revokeUserSessions(db, userId, now, reason, except);
}

/** One session record (amr, authentication time), for the consent step. */
export async function sessionRecord(sessionId: string): Promise<SessionRow | null> {
  return findSession(await getDb(), sessionId);
}

/** The live sessions of a user (privacy export). */
export async function liveSessionsOf(userId: string, now: Date): Promise<SessionRow[]> {
  return listLiveSessions(await getDb(), userId, now);
}

/**
 * A step-up is a re-authentication, so the session gets a new secret (ASVS V7.2.4): the same row
 * (id, history, the provider's linkage and the CSRF token bound to the id stay), a new sealed cookie,
 * and the old cookie dead from now on.
 */
export async function markStepUp(db: Executor, actor: SessionActor, method: 'passkey' | 'password', now: Date) {
  const { secret, secretHash } = newSessionSecret();
  if (!(await recordStepUpWithNewSecret(db, actor.sessionId, secretHash, now, method))) throw serviceError('unauthenticated', 'Sign in first.');
  const sealed = await sealSessionCookie({ sid: actor.sessionId, secret });
  const cookie: SessionCookieInstruction = { set: sealed, maxAgeSeconds: getConfig().ttl.sessionAbsolute };
  return { stepUp: { step_up_at: now.toISOString(), step_up_method: method }, cookie };
}

/**
 * The user's live sessions beyond the `limit` most recently used ones (least recently used first
 * to go), never `keep`: what a new sign-in ends when the account is at its concurrent-session limit.
 */
export async function sessionsBeyondLimit(db: Executor, userId: string, limit: number, keep: string, now: Date): Promise<SessionRow[]> {
  const live = (await listLiveSessions(db, userId, now)).filter((row) => idleExpiry(row) > now && row.id !== keep);
  live.sort((a, b) => b.lastSeenAt.getTime() - a.lastSeenAt.getTime() || b.createdAt.getTime() - a.createdAt.getTime());
  return live.slice(Math.max(0, limit - 1));
}

/** The sessions context's part of an erasure. */
export async function eraseSessionsOf(db: Executor, userId: string): Promise<void> {
  await deleteSessionsOf(db, userId);
}
