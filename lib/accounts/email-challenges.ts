import { randomUUID } from 'node:crypto';
import { recordAudit } from '@/lib/audit';
import { getConfig } from '@/lib/config';
import type { Actor } from '@/lib/contract/actor';
import { serviceError } from '@/lib/contract/errors';
import { getDb, inTransaction, type Executor } from '@/lib/db';
import { consumeRateLimit, refundRateLimit } from '@/lib/platform';
import { findEmailChallengeByToken, insertEmailChallenge, markVerified, replaceCode, type EmailChallengeRow } from './email-challenges.repo';
import { codeMatches, guessBudgetKey, hashCode, hashToken, newCode, newToken } from './secrets';

export type ChallengePurpose = EmailChallengeRow['purpose'];

/**
 * The guess budget: wrong codes allowed per address and purpose in one fixed 15-minute window,
 * whatever the number of codes mailed meanwhile (a re-send or a new start does not refill it). It is
 * not scaled by RATE_LIMIT_SCALE: it is what bounds guessing a six-digit code (docs/decisions.md).
 */
export const CODE_GUESS_BUDGET = { wrongCodes: 5, windowSeconds: 900 } as const;
const GUESS_BUCKET = 'code_guesses';

function lifetimeSeconds(purpose: ChallengePurpose): number {
  const ttl = getConfig().ttl;
  return purpose === 'enrollment' ? ttl.enrollmentToken : purpose === 'recovery' ? ttl.recoveryToken : ttl.verificationCode;
}

export interface StartedChallenge {
  id: string;
  token: string | null;
  code: string;
  expiresAt: Date;
}

/**
 * Creates an e-mail proof. `canVerify: false` makes a decoy that behaves like the real thing but can
 * never verify (an existing address for enrollment, an unknown one for recovery or sign-in).
 */
export async function startChallenge(
  db: Executor,
  input: { purpose: ChallengePurpose; email: string; userId: string | null; canVerify: boolean; withToken: boolean; now: Date },
): Promise<StartedChallenge> {
  const id = randomUUID();
  const code = newCode();
  const token = input.withToken ? newToken() : null;
  const expiresAt = new Date(input.now.getTime() + lifetimeSeconds(input.purpose) * 1000);
  const codeExpiresAt = new Date(Math.min(expiresAt.getTime(), input.now.getTime() + getConfig().ttl.verificationCode * 1000));
  await insertEmailChallenge(db, {
    id,
    purpose: input.purpose,
    email: input.email,
    userId: input.userId,
    tokenHash: token?.tokenHash ?? null,
    codeHash: hashCode(id, code),
    canVerify: input.canVerify,
    createdAt: input.now,
    codeExpiresAt,
    expiresAt,
  });
  return { id, token: token?.token ?? null, code, expiresAt };
}

/** The enrollment and recovery token terms: a live, unconsumed challenge of that purpose. */
export async function resolveChallengeToken(purpose: ChallengePurpose, token: string, now: Date): Promise<EmailChallengeRow | null> {
  if (token.length > 128) return null;
  const row = await findEmailChallengeByToken(await getDb(), hashToken(token));
  if (!row || row.purpose !== purpose || row.consumedAt || row.expiresAt <= now) return null;
  return row;
}

function invalidCode(detail = 'The code is wrong or has expired.'): never {
  throw serviceError('invalid_code', detail);
}

/**
 * Checks a code against the address's guess budget. A guess is counted before the code is compared
 * (atomically, outside any transaction that a failure would roll back), so parallel guesses cannot
 * exceed the budget; a right code gives its unit back. Once the budget is spent every code of that
 * address and purpose is refused, the right one included, until the window ends. Decoys spend it too.
 */
export async function verifyCode(row: EmailChallengeRow, code: string, now: Date): Promise<void> {
  if (row.consumedAt || row.codeExpiresAt <= now || row.expiresAt <= now) invalidCode();
  const budget = guessBudgetKey(row.purpose, row.email);
  const { wrongCodes, windowSeconds } = CODE_GUESS_BUDGET;
  const guess = await consumeRateLimit(GUESS_BUCKET, budget, wrongCodes, windowSeconds, now);
  if (!guess.allowed) invalidCode(`Too many wrong codes for this address; try again in ${Math.ceil(guess.resetSeconds / 60)} minutes.`);
  if (!row.canVerify || !codeMatches(row.id, code, row.codeHash)) invalidCode();
  await refundRateLimit(GUESS_BUCKET, budget, windowSeconds, now);
}

/**
 * Verifies a challenge by its code, with its audit trail under `action`: a wrong code is recorded as a
 * failure outside any transaction (the refusal must not roll it back); a right one marks the challenge
 * verified and is recorded in the same transaction. A challenge verified already stays verified.
 */
export async function proveByCode(
  row: EmailChallengeRow,
  code: string,
  audit: { action: 'enrollment.email_verification' | 'recovery.verification'; actor: Actor; requestId: string },
  now: Date,
): Promise<void> {
  if (row.verifiedAt) return;
  const record = { ...audit, subject: { type: row.purpose, id: row.id }, at: now };
  try {
    await verifyCode(row, code, now);
  } catch (error) {
    await recordAudit(await getDb(), { ...record, outcome: 'failure' });
    throw error;
  }
  await inTransaction(async (tx) => {
    await markVerified(tx, row.id, now);
    await recordAudit(tx, { ...record, outcome: 'success' });
  });
}

/** A fresh code (the old one stops working); the address's guess budget is left as it is. */
export async function rotateCode(db: Executor, row: EmailChallengeRow, now: Date): Promise<{ code: string; codeExpiresAt: Date }> {
  const code = newCode();
  const codeExpiresAt = new Date(Math.min(row.expiresAt.getTime(), now.getTime() + getConfig().ttl.verificationCode * 1000));
  await replaceCode(db, row.id, hashCode(row.id, code), codeExpiresAt);
  return { code, codeExpiresAt };
}
