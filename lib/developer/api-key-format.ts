/**
 * The API-key format (ARCHITECTURE.md, API keys): `idk_` + base32 (RFC 4648 alphabet, lowercase, no
 * padding) of 32 random bytes + `_` + a checksum: the first 6 base32 characters of SHA-256 over the
 * random part. Secret scanners recognise the shape, and the service refuses a malformed or mistyped
 * key before any database read. Only the SHA-256 (hex) of the whole key is ever stored.
 */
import { createHash, randomBytes } from 'node:crypto';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';
export const API_KEY_PREFIX = 'idk_';
const RANDOM_BYTES = 32;
const CHECKSUM_LENGTH = 6;
/** Characters of the key kept for display (`idk_` and the first 8 random characters). */
export const DISPLAY_PREFIX_LENGTH = 12;
const SHAPE = /^idk_([a-z2-7]{52})_([a-z2-7]{6})$/;

export function base32(bytes: Uint8Array): string {
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(buffer >>> (bits - 5)) & 31];
      bits -= 5;
    }
    buffer &= (1 << bits) - 1;
  }
  if (bits > 0) out += ALPHABET[(buffer << (5 - bits)) & 31];
  return out;
}

function checksumOf(randomPart: string): string {
  return base32(createHash('sha256').update(randomPart, 'utf8').digest()).slice(0, CHECKSUM_LENGTH);
}

/** A new key; the caller shows it once and keeps only `hashApiKey(key)`. */
export function generateApiKey(): string {
  const randomPart = base32(randomBytes(RANDOM_BYTES));
  return `${API_KEY_PREFIX}${randomPart}_${checksumOf(randomPart)}`;
}

/** Shape and checksum only: no secret is involved (the checksum is public), so no constant time needed. */
export function isWellFormedApiKey(key: string): boolean {
  const match = SHAPE.exec(key);
  return match !== null && checksumOf(match[1]!) === match[2];
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

export const displayPrefix = (key: string) => key.slice(0, DISPLAY_PREFIX_LENGTH);
