import { randomUUID } from 'node:crypto';
import { getConfig } from '@/lib/config';
import { serviceError } from '@/lib/contract/errors';
import { getDb, type Executor } from '@/lib/db';
import {
  findEmailChallengeByToken,
  insertEmailChallenge,
  replaceCode,
  spendAttempt,
  type EmailChallengeRow,
} from './email-challenges.repo';
import { codeMatches, hashCode, hashToken, newCode, newToken } from './secrets';

export const MAX_CODE_ATTEMPTS = 5;
export type ChallengePurpose = EmailChallengeRow['purpose'];

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
 * Checks a code: at most MAX_CODE_ATTEMPTS tries per code (the attempt is spent before comparing,
 * outside any transaction that a failure would roll back), then the code is burnt.
 */
export async function verifyCode(row: EmailChallengeRow, code: string, now: Date): Promise<void> {
  if (row.consumedAt || row.codeExpiresAt <= now || row.expiresAt <= now) invalidCode();
  if (!(await spendAttempt(await getDb(), row.id, MAX_CODE_ATTEMPTS))) invalidCode('Too many wrong codes; ask for a new one.');
  if (!row.canVerify || !codeMatches(row.id, code, row.codeHash)) invalidCode();
}

/** A fresh code (the old one stops working) with a fresh attempt budget. */
export async function rotateCode(db: Executor, row: EmailChallengeRow, now: Date): Promise<{ code: string; codeExpiresAt: Date }> {
  const code = newCode();
  const codeExpiresAt = new Date(Math.min(row.expiresAt.getTime(), now.getTime() + getConfig().ttl.verificationCode * 1000));
  await replaceCode(db, row.id, hashCode(row.id, code), codeExpiresAt);
  return { code, codeExpiresAt };
}
