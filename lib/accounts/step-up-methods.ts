import type { SessionTerm, StepUpMethod } from '@/lib/contract/wire';
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

/** Step-ups that count for the person's own account and sessions: a passkey or the password, within the step-up window. */
export const SESSION_STEP_UP_METHODS: StepUpMethod[] = ['passkey', 'password'];

/** The auth term of the account's sensitive operations: a session with a recent step-up. */
export const WITH_STEP_UP: SessionTerm = { kind: 'session', stepUp: { methods: SESSION_STEP_UP_METHODS } };
