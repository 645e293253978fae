import { and, desc, eq, gt, isNull, ne } from 'drizzle-orm';
import type { Executor } from '@/lib/db';
import { sessions } from '@/lib/db/schema';

export type SessionRow = typeof sessions.$inferSelect;
export type NewSession = typeof sessions.$inferInsert;

export async function insertSession(db: Executor, row: NewSession): Promise<void> {
  await db.insert(sessions).values(row);
}

export async function findSession(db: Executor, id: string): Promise<SessionRow | null> {
  const [row] = await db.select().from(sessions).where(eq(sessions.id, id));
  return row ?? null;
}

export async function touchSession(db: Executor, id: string, at: Date): Promise<void> {
  await db.update(sessions).set({ lastSeenAt: at }).where(eq(sessions.id, id));
}

export async function recordSessionStepUp(db: Executor, id: string, at: Date, method: 'passkey' | 'password'): Promise<void> {
  await db.update(sessions).set({ stepUpAt: at, stepUpMethod: method }).where(eq(sessions.id, id));
}

export async function listLiveSessions(db: Executor, userId: string, now: Date): Promise<SessionRow[]> {
  return db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)))
    .orderBy(desc(sessions.createdAt), desc(sessions.id));
}

/** Revokes one session of `userId`; returns false when it is not theirs or already revoked. */
export async function revokeOwnedSession(db: Executor, id: string, userId: string, at: Date, reason: string): Promise<boolean> {
  const revoked = await db
    .update(sessions)
    .set({ revokedAt: at, revokedReason: reason })
    .where(and(eq(sessions.id, id), eq(sessions.userId, userId), isNull(sessions.revokedAt)))
    .returning({ id: sessions.id });
  return revoked.length === 1;
}

/** Revokes every live session of a user (optionally but one); returns the revoked ids. */
export async function revokeUserSessions(db: Executor, userId: string, at: Date, reason: string, except?: string): Promise<string[]> {
  const revoked = await db
    .update(sessions)
    .set({ revokedAt: at, revokedReason: reason })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), except ? ne(sessions.id, except) : undefined))
    .returning({ id: sessions.id });
  return revoked.map((r) => r.id);
}
