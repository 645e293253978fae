/**
 * What a stored passkey may hold, as one set of rules for registration and sign-in: a credential id
 * that registers can always be presented at sign-in, and nothing an authenticator (or a hand-built
 * response) sends grows a row or an index without bound.
 */
import { z } from 'zod';

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

/**
 * The COSE public key, encoded: every algorithm we accept (EdDSA, ES256, RS256) fits well within this
 * (an RS256 key of 4,096 bits is about 550 bytes); anything larger is padding, not a key.
 */
export const PUBLIC_KEY_MAX_BYTES = 2048;

/** WebAuthn Level 3 §5.8.4 AuthenticatorTransport: the only transport hints that are stored. */
const KNOWN_TRANSPORTS = ['usb', 'nfc', 'ble', 'smart-card', 'hybrid', 'internal'] as const;
type KnownTransport = (typeof KNOWN_TRANSPORTS)[number];

/** The `transports` a registration response may carry: a short list of short names. */
export const transportsField = z.array(z.string().max(32)).max(KNOWN_TRANSPORTS.length * 2);

/**
 * The transport hints kept for a new passkey: the known values, each once. Unknown names are dropped,
 * not refused: clients must ignore transports they do not know (§5.8.4), and a new one in a browser
 * must not break sign-up.
 */
export function storedTransports(reported: readonly string[] | undefined): KnownTransport[] {
  return KNOWN_TRANSPORTS.filter((known) => reported?.includes(known));
}
