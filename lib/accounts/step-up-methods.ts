import { getDb } from '@/lib/db';
import { countUserPasskeys } from './passkeys.repo';
import { findPasswordCredential } from './passwords.repo';

/**
 * The re-authentication methods this account can actually use, so a step-up prompt never asks for a
 * password the person does not have (or a passkey they never registered).
 */
export async function stepUpMethodsOf(userId: string): Promise<('passkey' | 'password')[]> {
  const db = await getDb();
  const [passkeys, password] = await Promise.all([countUserPasskeys(db, userId), findPasswordCredential(db, userId)]);
  return [...(passkeys > 0 ? (['passkey'] as const) : []), ...(password ? (['password'] as const) : [])];
}
