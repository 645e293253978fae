/**
 * Bearer secrets with a recognisable shape (ARCHITECTURE.md, API keys): `<prefix>` + base32 (RFC 4648
 * alphabet, lowercase, no padding) of 32 random bytes + `_` + a checksum, the first 6 base32 characters
 * of SHA-256 over the random part. Secret scanners recognise the shape, and the service refuses a
 * malformed or mistyped secret before any database read. Only the SHA-256 (hex) of the whole secret is
 * ever stored. API keys (`idk_`) and SCIM tokens (`scim_`) are both of this kind.
 */
import { createHash, randomBytes } from 'node:crypto';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';
const RANDOM_BYTES = 32;
const CHECKSUM_LENGTH = 6;
/** Random characters kept for display after the prefix (8: recognisable in a list, useless to guess from). */
const DISPLAY_RANDOM_CHARACTERS = 8;

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

export interface PrefixedSecretFormat {
  prefix: string;
  /** A new secret; the caller shows it once and keeps only `hash(secret)`. */
  generate: () => string;
  /** Shape and checksum only: no secret is involved (the checksum is public), so no constant time needed. */
  isWellFormed: (secret: string) => boolean;
  hash: (secret: string) => string;
  /** What a list may show of the secret. */
  displayPrefix: (secret: string) => string;
}

export function prefixedSecretFormat(prefix: string): PrefixedSecretFormat {
  const shape = new RegExp(`^${prefix}([a-z2-7]{52})_([a-z2-7]{${CHECKSUM_LENGTH}})$`);
  return {
    prefix,
    generate: () => {
      const randomPart = base32(randomBytes(RANDOM_BYTES));
      return `${prefix}${randomPart}_${checksumOf(randomPart)}`;
    },
    isWellFormed: (secret) => {
      const match = shape.exec(secret);
      return match !== null && checksumOf(match[1]!) === match[2];
    },
    hash: (secret) => createHash('sha256').update(secret, 'utf8').digest('hex'),
    displayPrefix: (secret) => secret.slice(0, prefix.length + DISPLAY_RANDOM_CHARACTERS),
  };
}
