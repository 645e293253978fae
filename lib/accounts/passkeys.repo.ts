import { and, asc, count, eq, gt, isNull } from 'drizzle-orm';
import type { Executor } from '@/lib/db';
import { passkeys, webauthnChallenges } from '@/lib/db/schema';

export type PasskeyRow = typeof passkeys.$inferSelect;
export type ChallengeRow = typeof webauthnChallenges.$inferSelect;

/** False when the credential id is already registered (a concurrent registration of it won). */
export async function insertPasskey(db: Executor, row: typeof passkeys.$inferInsert): Promise<boolean> {
  const inserted = await db.insert(passkeys).values(row).onConflictDoNothing({ target: passkeys.credentialId }).returning({ id: passkeys.id });
  return inserted.length === 1;
}

export async function findPasskeyByCredentialId(db: Executor, credentialId: string): Promise<PasskeyRow | null> {
  const [row] = await db.select().from(passkeys).where(eq(passkeys.credentialId, credentialId));
  return row ?? null;
}

export async function listUserPasskeys(db: Executor, userId: string): Promise<PasskeyRow[]> {
  return db.select().from(passkeys).where(eq(passkeys.userId, userId)).orderBy(asc(passkeys.createdAt), asc(passkeys.id));
}

export async function countUserPasskeys(db: Executor, userId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(passkeys).where(eq(passkeys.userId, userId));
  return row?.n ?? 0;
}

export async function recordPasskeyUse(db: Executor, id: string, counter: number, at: Date): Promise<void> {
  await db.update(passkeys).set({ counter, lastUsedAt: at }).where(eq(passkeys.id, id));
}

export async function renameUserPasskey(db: Executor, id: string, userId: string, name: string): Promise<PasskeyRow | null> {
  const [row] = await db
    .update(passkeys)
    .set({ name })
    .where(and(eq(passkeys.id, id), eq(passkeys.userId, userId)))
    .returning();
  return row ?? null;
}

export async function deleteUserPasskey(db: Executor, id: string, userId: string): Promise<boolean> {
  const deleted = await db
    .delete(passkeys)
    .where(and(eq(passkeys.id, id), eq(passkeys.userId, userId)))
    .returning({ id: passkeys.id });
  return deleted.length === 1;
}

export async function insertWebauthnChallenge(db: Executor, row: typeof webauthnChallenges.$inferInsert): Promise<void> {
  await db.insert(webauthnChallenges).values(row);
}

/** Single use: the challenge is consumed by the first completion that presents it, live or not. */
export async function consumeWebauthnChallenge(db: Executor, id: string, now: Date): Promise<ChallengeRow | null> {
  const [row] = await db
    .update(webauthnChallenges)
    .set({ consumedAt: now })
    .where(and(eq(webauthnChallenges.id, id), isNull(webauthnChallenges.consumedAt), gt(webauthnChallenges.expiresAt, now)))
    .returning();
  return row ?? null;
}

/** Ends the account's WebAuthn ceremonies in flight (registration for recovery or for adding a passkey). */
export async function consumeAccountCeremonies(db: Executor, userId: string, now: Date): Promise<void> {
  await db
    .update(webauthnChallenges)
    .set({ consumedAt: now })
    .where(and(eq(webauthnChallenges.userId, userId), isNull(webauthnChallenges.consumedAt)));
}
