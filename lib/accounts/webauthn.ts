/**
 * WebAuthn ceremonies with @simplewebauthn/server. Every ceremony has a server-side challenge row:
 * single use, 5 minutes, bound to its purpose and subject (enrollment, recovery, session or none).
 * User verification is required; attestation is not requested (privacy, and we trust no vendor list).
 */
import { randomUUID } from 'node:crypto';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { getConfig, SERVICE_NAME } from '@/lib/config';
import { serviceError } from '@/lib/contract/errors';
import { getDb, type Executor } from '@/lib/db';
import {
  consumeWebauthnChallenge,
  findPasskeyByCredentialId,
  insertWebauthnChallenge,
  recordPasskeyUse,
  type ChallengeRow,
  type PasskeyRow,
} from './passkeys.repo';
import { credentialIdField } from './terms';
import { PUBLIC_KEY_MAX_BYTES, storedTransports } from './webauthn-limits';

export type CeremonyPurpose = ChallengeRow['purpose'];
const RP_NAME = SERVICE_NAME;

/** What `.../options` operations return: the browser library's options JSON and our challenge id. */
export interface CeremonyOptions {
  options: Record<string, unknown>;
  challenge_id: string;
}

const asJson = (options: object) => options as unknown as Record<string, unknown>;

function uuidBytes(id: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(Buffer.from(id.replace(/-/g, ''), 'hex'));
}

/** The WebAuthn user handle of an account (its id's 16 bytes), as the browser reports it: base64url. */
function userHandleOf(userId: string): string {
  return Buffer.from(uuidBytes(userId)).toString('base64url');
}

/** `now` is the request's clock (injectable), the same one that later decides whether the challenge expired. */
async function storeChallenge(db: Executor, purpose: CeremonyPurpose, challenge: string, subject: string | null, userId: string | null, now: Date) {
  const id = randomUUID();
  const expiresAt = new Date(now.getTime() + getConfig().ttl.webauthnChallenge * 1000);
  await insertWebauthnChallenge(db, { id, purpose, challenge, subject, userId, expiresAt });
  return id;
}

export async function registrationOptions(
  db: Executor,
  input: { purpose: CeremonyPurpose; subject: string | null; userId: string; email: string; displayName: string | null; exclude: PasskeyRow[] },
  now: Date,
): Promise<CeremonyOptions> {
  const config = getConfig();
  const options = await generateRegistrationOptions({
    rpName: RP_NAME,
    rpID: config.rpId,
    userName: input.email,
    userDisplayName: input.displayName ?? input.email,
    userID: uuidBytes(input.userId),
    attestationType: 'none',
    excludeCredentials: input.exclude.map((p) => ({ id: p.credentialId, transports: p.transports as AuthenticatorTransport[] })),
    authenticatorSelection: { residentKey: 'required', requireResidentKey: true, userVerification: 'required' },
    timeout: config.ttl.webauthnChallenge * 1000,
  });
  const challengeId = await storeChallenge(db, input.purpose, options.challenge, input.subject, input.userId, now);
  return { options: asJson(options), challenge_id: challengeId };
}

export async function authenticationOptions(
  db: Executor,
  input: { purpose: CeremonyPurpose; subject: string | null; allow: PasskeyRow[] },
  now: Date,
): Promise<CeremonyOptions> {
  const config = getConfig();
  const options = await generateAuthenticationOptions({
    rpID: config.rpId,
    // Empty for sign-in: discoverable credentials, no username first (and no account enumeration).
    allowCredentials: input.allow.map((p) => ({ id: p.credentialId, transports: p.transports as AuthenticatorTransport[] })),
    userVerification: 'required',
    timeout: config.ttl.webauthnChallenge * 1000,
  });
  const challengeId = await storeChallenge(db, input.purpose, options.challenge, input.subject, null, now);
  return { options: asJson(options), challenge_id: challengeId };
}

async function takeChallenge(challengeId: string, purpose: CeremonyPurpose, subject: string | null, now: Date): Promise<ChallengeRow> {
  const row = await consumeWebauthnChallenge(await getDb(), challengeId, now);
  if (!row || row.purpose !== purpose || row.subject !== subject) {
    throw serviceError('invalid_request', 'The passkey challenge is unknown, used or expired; ask for new options.');
  }
  return row;
}

export interface NewCredential {
  credentialId: string;
  publicKey: string;
  counter: number;
  transports: string[];
  deviceType: string;
  backedUp: boolean;
  userId: string;
  /** The authenticator model's id (all zero when the authenticator or browser withholds it). */
  aaguid: string;
}

export async function verifyRegistration(
  input: { challengeId: string; purpose: CeremonyPurpose; subject: string | null; credential: unknown },
  now: Date,
): Promise<NewCredential> {
  const challenge = await takeChallenge(input.challengeId, input.purpose, input.subject, now);
  const response = input.credential as RegistrationResponseJSON;
  const config = getConfig();
  let verification;
  try {
    verification = await verifyRegistrationResponse({
      response,
      expectedChallenge: challenge.challenge,
      expectedOrigin: config.origin,
      expectedRPID: config.rpId,
      requireUserVerification: true,
    });
  } catch {
    throw serviceError('invalid_request', 'The passkey could not be verified.');
  }
  if (!verification.verified) throw serviceError('invalid_request', 'The passkey could not be verified.');
  const { credential, credentialDeviceType, credentialBackedUp, aaguid } = verification.registrationInfo;
  assertStorable(credential, response);
  if (await findPasskeyByCredentialId(await getDb(), credential.id)) throw serviceError('conflict', 'This passkey is already registered.');
  return {
    credentialId: credential.id,
    publicKey: Buffer.from(credential.publicKey).toString('base64url'),
    counter: credential.counter,
    transports: storedTransports(credential.transports),
    deviceType: credentialDeviceType,
    backedUp: credentialBackedUp,
    userId: challenge.userId!,
    aaguid,
  };
}

/**
 * The stored id is the one in the authenticator data: it must be the id the response reports (which
 * sign-in will present) and obey the same bound as the body schema (terms.ts). The public
 * key is bounded too: nothing else in the response limits what the row would hold.
 */
function assertStorable(credential: { id: string; publicKey: Uint8Array }, response: RegistrationResponseJSON): void {
  if (credential.id !== response.id) throw serviceError('invalid_request', 'The credential id does not match the authenticator data.');
  if (!credentialIdField.safeParse(credential.id).success) throw serviceError('invalid_request', 'The credential id is longer than WebAuthn allows.');
  if (credential.publicKey.length > PUBLIC_KEY_MAX_BYTES) throw serviceError('invalid_request', 'The public key is larger than any key this service accepts.');
}

/**
 * WebAuthn §7.2 step 6: a user handle in the assertion must be the passkey owner's. A usernameless
 * sign-in named nobody beforehand, so there the handle is required.
 */
function userHandleFits(response: AuthenticationResponseJSON, passkey: PasskeyRow, required: boolean): boolean {
  const handle = response.response?.userHandle;
  if (!handle) return !required;
  return handle === userHandleOf(passkey.userId);
}

function rejected(): never {
  throw serviceError('invalid_credentials', 'The passkey was not accepted.');
}

/**
 * Verifies an assertion against the stored public key (signature, challenge, origin, rp id, user
 * verification, counter, user handle) and records the use. `verified: false` is a rejection, never a pass.
 */
export async function verifyAssertion(
  input: { challengeId: string; purpose: CeremonyPurpose; subject: string | null; credential: unknown },
  now: Date,
): Promise<PasskeyRow> {
  const challenge = await takeChallenge(input.challengeId, input.purpose, input.subject, now);
  const response = input.credential as AuthenticationResponseJSON;
  const passkey = typeof response?.id === 'string' ? await findPasskeyByCredentialId(await getDb(), response.id) : null;
  if (!passkey || !userHandleFits(response, passkey, input.purpose === 'signin')) return rejected();
  const config = getConfig();
  let verification: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
  try {
    verification = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge.challenge,
      expectedOrigin: config.origin,
      expectedRPID: config.rpId,
      requireUserVerification: true,
      credential: {
        id: passkey.credentialId,
        publicKey: new Uint8Array(Buffer.from(passkey.publicKey, 'base64url')),
        counter: passkey.counter,
        transports: passkey.transports as AuthenticatorTransport[],
      },
    });
  } catch {
    return rejected();
  }
  if (!verification.verified) return rejected();
  const counter = verification.authenticationInfo.newCounter;
  await recordPasskeyUse(await getDb(), passkey.id, counter, now);
  return { ...passkey, counter, lastUsedAt: now };
}
