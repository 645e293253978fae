import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '@/lib/db';
import { emailChallenges } from '@/lib/db/schema';

export type EmailChallengeRow = typeof emailChallenges.$inferSelect;

export async function insertEmailChallenge(db: Executor, row: typeof emailChallenges.$inferInsert): Promise<void> {
  await db.insert(emailChallenges).values(row);
}

export async function findEmailChallengeByToken(db: Executor, tokenHash: string): Promise<EmailChallengeRow | null> {
  const [row] = await db.select().from(emailChallenges).where(eq(emailChallenges.tokenHash, tokenHash));
  return row ?? null;
}

export async function findEmailChallenge(db: Executor, id: string): Promise<EmailChallengeRow | null> {
  const [row] = await db.select().from(emailChallenges).where(eq(emailChallenges.id, id));
  return row ?? null;
}

export async function markVerified(db: Executor, id: string, at: Date): Promise<void> {
  await db.update(emailChallenges).set({ verifiedAt: at }).where(eq(emailChallenges.id, id));
}

/**
 * Ends every live e-mail proof of an account (sign-in codes, recoveries, and the decoy enrollments
 * started for its address): consumed, so neither their codes nor their tokens work any more.
 */
export async function consumeAccountChallenges(db: Executor, userId: string, at: Date): Promise<void> {
  await db
    .update(emailChallenges)
    .set({ consumedAt: at })
    .where(and(eq(emailChallenges.userId, userId), isNull(emailChallenges.consumedAt)));
}

/** Single use: only one caller can consume a challenge. */
export async function consumeChallenge(db: Executor, id: string, at: Date): Promise<boolean> {
  const consumed = await db
    .update(emailChallenges)
    .set({ consumedAt: at })
    .where(and(eq(emailChallenges.id, id), isNull(emailChallenges.consumedAt)))
    .returning({ id: emailChallenges.id });
  return consumed.length === 1;
}

export async function replaceCode(db: Executor, id: string, codeHash: string, codeExpiresAt: Date): Promise<void> {
  await db
    .update(emailChallenges)
    .set({ codeHash, codeExpiresAt, resends: sql`${emailChallenges.resends} + 1` })
    .where(eq(emailChallenges.id, id));
}
