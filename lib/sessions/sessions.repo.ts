import { and, desc, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { Executor } from '@/lib/db';
import { sessions, users } from '@/lib/db/schema';
import type { UserRow } from '@/lib/users';

export type SessionRow = typeof sessions.$inferSelect;
export type NewSession = typeof sessions.$inferInsert;

export async function insertSession(db: Executor, row: NewSession): Promise<void> {
  await db.insert(sessions).values(row);
}

export async function findSession(db: Executor, id: string): Promise<SessionRow | null> {
  const [row] = await db.select().from(sessions).where(eq(sessions.id, id));
  return row ?? null;
}

function sessionWithUserQuery(db: Executor) {
  return db
    .select({ session: sessions, user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.id, sql.placeholder('id')))
    .prepare('session_with_user');
}

/**
 * Drizzle builds a query's SQL anew on every call, which for this two-table selection costs about as
 * much CPU as the database answering it; the statement every cookie request runs is built once per
 * database handle (or transaction) instead.
 */
const preparedFor = new WeakMap<Executor, ReturnType<typeof sessionWithUserQuery>>();

/** The session with its user, in one round trip (every cookie request reads both). */
export async function findSessionWithUser(db: Executor, id: string): Promise<{ session: SessionRow; user: UserRow } | null> {
  let query = preparedFor.get(db);
  if (!query) preparedFor.set(db, (query = sessionWithUserQuery(db)));
  const [row] = await query.execute({ id });
  return row ?? null;
}

export async function touchSession(db: Executor, id: string, at: Date): Promise<void> {
  await db.update(sessions).set({ lastSeenAt: at }).where(eq(sessions.id, id));
}

/**
 * Records a step-up on a live session and replaces its secret in the same write: the old cookie
 * stops matching. False when the session ended meanwhile (it is never revived).
 */
export async function recordStepUpWithNewSecret(db: Executor, id: string, secretHash: string, at: Date, method: 'passkey' | 'password'): Promise<boolean> {
  const updated = await db
    .update(sessions)
    .set({ secretHash, stepUpAt: at, stepUpMethod: method })
    .where(and(eq(sessions.id, id), isNull(sessions.revokedAt)))
    .returning({ id: sessions.id });
  return updated.length > 0;
}

export async function listLiveSessions(db: Executor, userId: string, now: Date): Promise<SessionRow[]> {
  return db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)))
    .orderBy(desc(sessions.createdAt), desc(sessions.id));
}

export interface RevokedSession {
  id: string;
  authenticatedAt: Date;
}

const revokedColumns = { id: sessions.id, authenticatedAt: sessions.authenticatedAt };

/** Revokes one session of `userId`; returns null when it is not theirs or already revoked. */
export async function revokeOwnedSession(db: Executor, id: string, userId: string, at: Date, reason: string): Promise<RevokedSession | null> {
  const [revoked] = await db
    .update(sessions)
    .set({ revokedAt: at, revokedReason: reason })
    .where(and(eq(sessions.id, id), eq(sessions.userId, userId), isNull(sessions.revokedAt)))
    .returning(revokedColumns);
  return revoked ?? null;
}

/** Revokes every live session of a user (optionally but one). */
export async function revokeUserSessions(db: Executor, userId: string, at: Date, reason: string, except?: string): Promise<RevokedSession[]> {
  return db
    .update(sessions)
    .set({ revokedAt: at, revokedReason: reason })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), except ? ne(sessions.id, except) : undefined))
    .returning(revokedColumns);
}

/** Erasure: every session row of the account, live or not. */
export async function deleteSessionsOf(db: Executor, userId: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.userId, userId));
}
