/**
 * The accounts context's wire terms: what its contracts (lib/accounts/*.contract.ts) and its services
 * share. Plain zod and data, so browser code may import them with the contracts.
 */
import { z } from 'zod';
import type { SessionTerm, StepUpMethod } from '@/lib/contract/wire';

export { canonicalEmail, emailField } from '@/lib/contract/email-address';

/** Step-ups that count for the person's own account and sessions: a passkey or the password, within the step-up window. */
export const SESSION_STEP_UP_METHODS: StepUpMethod[] = ['passkey', 'password'];

/** The auth term of the account's sensitive operations: a session with a recent step-up. */
export const WITH_STEP_UP: SessionTerm = { kind: 'session', stepUp: { methods: SESSION_STEP_UP_METHODS } };

/*
 * What a passkey credential may hold on the wire, as one set of rules for registration and sign-in: a
 * credential id that registers can always be presented at sign-in (webauthn-limits.ts has the rest).
 */

/** WebAuthn Level 3 §5.1 / §6.1: a credential id is at most 1,023 bytes. */
export const CREDENTIAL_ID_MAX_BYTES = 1023;
/** Unpadded base64url of CREDENTIAL_ID_MAX_BYTES (1,023 bytes: 1,364 characters; longer text decodes to more). */
const CREDENTIAL_ID_MAX_CHARS = Math.ceil((CREDENTIAL_ID_MAX_BYTES * 4) / 3);

/** A credential id as the browser reports it (`id`, `rawId`): the only form the service stores and looks up. */
export const credentialIdField = z
  .string()
  .min(1)
  .max(CREDENTIAL_ID_MAX_CHARS, `A credential id is at most ${CREDENTIAL_ID_MAX_BYTES} bytes.`)
  .regex(/^[A-Za-z0-9_-]+$/, 'A credential id is unpadded base64url.');

/** WebAuthn Level 3 §5.8.4 AuthenticatorTransport: the only transport hints that are stored. */
export const KNOWN_TRANSPORTS = ['usb', 'nfc', 'ble', 'smart-card', 'hybrid', 'internal'] as const;

/** The `transports` a registration response may carry: a short list of short names. */
export const transportsField = z.array(z.string().max(32)).max(KNOWN_TRANSPORTS.length * 2);
