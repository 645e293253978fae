import { eq, sql } from 'drizzle-orm';
import type { Executor } from '@/lib/db';
import { passwordCredentials } from '@/lib/db/schema';
import type { PasswordProof } from './password-hashing';

export type PasswordCredentialRow = typeof passwordCredentials.$inferSelect;

export async function findPasswordCredential(db: Executor, userId: string): Promise<PasswordCredentialRow | null> {
  const [row] = await db.select().from(passwordCredentials).where(eq(passwordCredentials.userId, userId));
  return row ?? null;
}

/** Creates or replaces the proof; a new password also clears any lockout. */
export async function savePasswordProof(db: Executor, userId: string, proof: PasswordProof, at: Date): Promise<void> {
  await db
    .insert(passwordCredentials)
    .values({ userId, ...proof, createdAt: at, updatedAt: at })
    .onConflictDoUpdate({
      target: passwordCredentials.userId,
      set: { ...proof, failedAttempts: 0, lockedUntil: null, lockouts: 0, updatedAt: at },
    });
}

/** Counts a failure atomically; returns the new count and how many lockouts preceded it. */
export async function countFailure(db: Executor, userId: string): Promise<{ failedAttempts: number; lockouts: number }> {
  const [row] = await db
    .update(passwordCredentials)
    .set({ failedAttempts: sql`${passwordCredentials.failedAttempts} + 1` })
    .where(eq(passwordCredentials.userId, userId))
    .returning({ failedAttempts: passwordCredentials.failedAttempts, lockouts: passwordCredentials.lockouts });
  return row ?? { failedAttempts: 0, lockouts: 0 };
}

export async function lockPassword(db: Executor, userId: string, until: Date): Promise<void> {
  await db
    .update(passwordCredentials)
    .set({ lockedUntil: until, failedAttempts: 0, lockouts: sql`${passwordCredentials.lockouts} + 1` })
    .where(eq(passwordCredentials.userId, userId));
}

export async function clearFailures(db: Executor, userId: string, at: Date, rehashed: PasswordProof | null): Promise<void> {
  await db
    .update(passwordCredentials)
    .set({ failedAttempts: 0, lockouts: 0, lockedUntil: null, ...(rehashed ? { ...rehashed, updatedAt: at } : {}) })
    .where(eq(passwordCredentials.userId, userId));
}
