/**
 * What a stored passkey may hold, as one set of rules for registration and sign-in: nothing an
 * authenticator (or a hand-built response) sends grows a row or an index without bound. The rules a
 * request is parsed with (credential id, transports) are wire terms (terms.ts).
 */
import { KNOWN_TRANSPORTS } from './terms';

/**
 * The COSE public key, encoded: every algorithm we accept (EdDSA, ES256, RS256) fits well within this
 * (an RS256 key of 4,096 bits is about 550 bytes); anything larger is padding, not a key.
 */
export const PUBLIC_KEY_MAX_BYTES = 2048;

type KnownTransport = (typeof KNOWN_TRANSPORTS)[number];

/**
 * The transport hints kept for a new passkey: the known values, each once. Unknown names are dropped,
 * not refused: clients must ignore transports they do not know (§5.8.4), and a new one in a browser
 * must not break sign-up.
 */
export function storedTransports(reported: readonly string[] | undefined): KnownTransport[] {
  return KNOWN_TRANSPORTS.filter((known) => reported?.includes(known));
}
