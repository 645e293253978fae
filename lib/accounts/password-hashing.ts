/**
 * Password proofs (ARCHITECTURE.md, Decisions): proof = PBKDF2-HMAC-SHA256(HMAC-SHA256(pepper, NFC
 * password), per-credential salt, iterations). The pepper lives only in configuration, so a database
 * dump alone cannot be attacked offline. The work factor is "chained": `chain` lists the iteration
 * counts applied in order, and raising the count wraps stored proofs without knowing the password.
 * Hashing runs on libuv's thread pool (never the event loop), at most one job per core at a time.
 */
import { createHmac, pbkdf2, randomBytes, timingSafeEqual } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { promisify } from 'node:util';
import { getConfig } from '@/lib/config';
import { metrics, Semaphore } from '@/lib/platform';

const pbkdf2Async = promisify(pbkdf2);
const KEY_LENGTH = 32;

export interface PasswordProof {
  salt: string;
  proof: string;
  chain: number[];
}

const pool = new Semaphore(Math.max(1, availableParallelism()), 2_000, metrics().passwordHashing);

function peppered(password: string): Buffer {
  return createHmac('sha256', getConfig().passwordPepper).update(password.normalize('NFC'), 'utf8').digest();
}

async function derive(input: Buffer, salt: Buffer, chain: number[]): Promise<Buffer> {
  let value = input;
  for (const iterations of chain) {
    const current = value;
    value = await pool.run(() => pbkdf2Async(current, salt, iterations, KEY_LENGTH, 'sha256'));
  }
  return value;
}

export async function hashPassword(password: string): Promise<PasswordProof> {
  const salt = randomBytes(16);
  const chain = [getConfig().passwordIterations];
  const proof = await derive(peppered(password), salt, chain);
  return { salt: salt.toString('base64url'), proof: proof.toString('base64url'), chain };
}

/** `rehash` is true when the stored proof was made with another work factor than today's. */
export async function verifyPassword(password: string, stored: PasswordProof): Promise<{ ok: boolean; rehash: boolean }> {
  const candidate = await derive(peppered(password), Buffer.from(stored.salt, 'base64url'), stored.chain);
  const expected = Buffer.from(stored.proof, 'base64url');
  const ok = candidate.length === expected.length && timingSafeEqual(candidate, expected);
  const rehash = !(stored.chain.length === 1 && stored.chain[0] === getConfig().passwordIterations);
  return { ok, rehash };
}

let dummy: Promise<PasswordProof> | null = null;

/**
 * Spends the same work as a real verification, for unknown or locked accounts, so response timing
 * does not tell whether an account exists.
 */
export async function verifyAgainstDummy(password: string): Promise<void> {
  dummy ??= hashPassword(randomBytes(16).toString('hex'));
  await verifyPassword(password, await dummy);
}

/** Raises the work factor of a stored proof without the password (PBKDF2 over the old proof). */
export async function wrapProof(stored: PasswordProof, extraIterations: number): Promise<PasswordProof> {
  const salt = Buffer.from(stored.salt, 'base64url');
  const wrapped = await derive(Buffer.from(stored.proof, 'base64url'), salt, [extraIterations]);
  return { salt: stored.salt, proof: wrapped.toString('base64url'), chain: [...stored.chain, extraIterations] };
}
