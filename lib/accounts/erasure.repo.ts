import { eq, or } from 'drizzle-orm';
import type { Executor } from '@/lib/db';
import { emailChallenges, passkeys, passwordCredentials, users, webauthnChallenges } from '@/lib/db/schema';

/** The account's credentials and challenges (by account, and by address for the ones made before it). */
export async function deleteCredentialsOf(db: Executor, userId: string, email: string): Promise<void> {
  await db.delete(passwordCredentials).where(eq(passwordCredentials.userId, userId));
  await db.delete(passkeys).where(eq(passkeys.userId, userId));
  await db.delete(emailChallenges).where(or(eq(emailChallenges.userId, userId), eq(emailChallenges.email, email)));
  await db.delete(webauthnChallenges).where(eq(webauthnChallenges.userId, userId));
}

export async function deleteUserRow(db: Executor, userId: string): Promise<void> {
  await db.delete(users).where(eq(users.id, userId));
}
