/**
 * Provider keys: RS256 and ES256 signing keys (RS256 is every OIDC client's default) and cookie keys,
 * generated once, stored encrypted, shared by every instance. Rotation makes a new active key and
 * keeps the previous one in the JWKS as `retiring` until it is retired, so tokens it signed verify.
 */
import { generateKeyPairSync, randomBytes, randomUUID, type JsonWebKey } from 'node:crypto';
import { getConfig } from '@/lib/config';
import { API_TOKEN_TTL } from '@/lib/contract/api-resources';
import { inTransaction, getDb, type Tx } from '@/lib/db';
import { openSecret, sealSecret } from '@/lib/platform';
import { insertKey, listKeys, lockKeys, setKeyStatus, type OidcKeyRow } from './keys.repo';

export const SIGNING_ALGS = ['RS256', 'ES256'] as const;
type SigningAlg = (typeof SIGNING_ALGS)[number];
export type PrivateJwk = JsonWebKey & { kid: string; alg: SigningAlg; use: 'sig' };

const purposeOf = (row: Pick<OidcKeyRow, 'use' | 'kid'>) => `oidc-key:${row.use}:${row.kid}`;

function generateSigningJwk(alg: SigningAlg): PrivateJwk {
  const { privateKey } = alg === 'RS256' ? generateKeyPairSync('rsa', { modulusLength: 2048 }) : generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return { ...privateKey.export({ format: 'jwk' }), kid: randomUUID(), alg, use: 'sig' };
}

async function addSigningKey(tx: Tx, alg: SigningAlg, now: Date): Promise<void> {
  const jwk = generateSigningJwk(alg);
  await insertKey(tx, {
    kid: jwk.kid,
    use: 'signing',
    alg,
    status: 'active',
    sealed: sealSecret(JSON.stringify(jwk), purposeOf({ use: 'signing', kid: jwk.kid })),
    createdAt: now,
  });
}

async function addCookieKey(tx: Tx, now: Date): Promise<void> {
  const kid = randomUUID();
  await insertKey(tx, {
    kid,
    use: 'cookie',
    alg: null,
    status: 'active',
    sealed: sealSecret(randomBytes(32).toString('base64url'), purposeOf({ use: 'cookie', kid })),
    createdAt: now,
  });
}

/** Creates whatever is missing: one active key per signing algorithm and an active cookie key. */
export async function ensureKeys(now: Date): Promise<void> {
  await inTransaction(async (tx) => {
    await lockKeys(tx);
    const signing = await listKeys(tx, 'signing', ['active']);
    for (const alg of SIGNING_ALGS) if (!signing.some((k) => k.alg === alg)) await addSigningKey(tx, alg, now);
    if ((await listKeys(tx, 'cookie', ['active'])).length === 0) await addCookieKey(tx, now);
  });
}

/** New active keys; the previous ones keep verifying (signing keys) or reading cookies until retired. */
export async function rotateKeys(now: Date): Promise<void> {
  await inTransaction(async (tx) => {
    await lockKeys(tx);
    const active = [...(await listKeys(tx, 'signing', ['active'])), ...(await listKeys(tx, 'cookie', ['active']))];
    await setKeyStatus(
      tx,
      active.map((k) => k.kid),
      'retiring',
      now,
    );
    for (const alg of SIGNING_ALGS) await addSigningKey(tx, alg, now);
    await addCookieKey(tx, now);
  });
}

/**
 * The longest a token signed now stays valid: an API's access tokens may last a day (API_TOKEN_TTL),
 * ours and ID tokens the configured access-token lifetime. A key signs nothing once it is retiring,
 * so after this long every token it signed has expired.
 */
export function longestSignedTokenSeconds(): number {
  return Math.max(getConfig().ttl.accessToken, API_TOKEN_TTL.max);
}

/**
 * When the retiring signing keys may leave the JWKS: the longest token lifetime after the rotation
 * that made them retiring (the newest active key's creation). Null when nothing is retiring.
 */
export async function retirementDueAt(): Promise<Date | null> {
  const db = await getDb();
  if ((await listKeys(db, 'signing', ['retiring'])).length === 0) return null;
  const rotatedAt = Math.max(...(await listKeys(db, 'signing', ['active'])).map((k) => k.createdAt.getTime()));
  return new Date(rotatedAt + longestSignedTokenSeconds() * 1000);
}

/**
 * Ends the roll-over: retiring keys leave the JWKS and stop being accepted. Refused before
 * `retirementDueAt`, while tokens they signed may still be valid, unless `force` (a leaked key).
 */
export async function retireRetiringKeys(now: Date, options: { force?: boolean } = {}): Promise<void> {
  const due = await retirementDueAt();
  if (due && now < due && !options.force) throw new Error(`the retiring keys still verify tokens that are valid until ${due.toISOString()}`);
  const db = await getDb();
  const retiring = [...(await listKeys(db, 'signing', ['retiring'])), ...(await listKeys(db, 'cookie', ['retiring']))];
  await setKeyStatus(
    db,
    retiring.map((k) => k.kid),
    'retired',
    now,
  );
}

/** Every key that is not retired, without its secret half: for the operator's `npm run keys -- status`. */
export async function describeKeys(): Promise<{ kid: string; use: string; alg: string | null; status: string; createdAt: string }[]> {
  const db = await getDb();
  const rows = [...(await listKeys(db, 'signing', ['active', 'retiring'])), ...(await listKeys(db, 'cookie', ['active', 'retiring']))];
  return rows.map((row) => ({ kid: row.kid, use: row.use, alg: row.alg, status: row.status, createdAt: row.createdAt.toISOString() }));
}

/** Private JWKs for the provider: active keys first (they sign), then retiring ones (they verify). */
export async function signingJwks(): Promise<PrivateJwk[]> {
  const rows = await listKeys(await getDb(), 'signing', ['active', 'retiring']);
  return rows.map((row) => JSON.parse(openSecret(row.sealed, purposeOf(row))) as PrivateJwk);
}

/** The public half, for /.well-known/jwks.json. */
export function publicJwk(jwk: PrivateJwk): JsonWebKey & { kid: string; alg: string; use: string } {
  const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...rest } = jwk;
  return rest;
}

/** Cookie signing keys, active first (node-oidc-provider signs with the first, accepts all). */
export async function cookieKeys(): Promise<string[]> {
  const rows = await listKeys(await getDb(), 'cookie', ['active', 'retiring']);
  return rows.map((row) => openSecret(row.sealed, purposeOf(row)));
}
