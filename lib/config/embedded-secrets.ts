import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { RawEnv } from './schema';

interface StoredSecrets {
  session_secret: string;
  password_pepper: string;
  data_encryption_key: string;
}

export interface ResolvedSecrets {
  sessionSecret: string;
  passwordPepper: string;
  dataEncryptionKey: Buffer;
  generated: boolean;
}

function decodeKey(value: string): Buffer {
  return /^[0-9a-fA-F]{64}$/.test(value) ? Buffer.from(value, 'hex') : Buffer.from(value, 'base64');
}

/**
 * Embedded mode must start with no configuration at all, so it generates its secrets once and keeps
 * them beside the data they protect (DATA_DIR, mode 0600). Production (DATABASE_URL set) never gets
 * here without all three secrets: the schema refuses to start.
 */
export function resolveEmbeddedSecrets(env: RawEnv): ResolvedSecrets {
  if (env.SESSION_SECRET && env.PASSWORD_PEPPER && env.DATA_ENCRYPTION_KEY) {
    return {
      sessionSecret: env.SESSION_SECRET,
      passwordPepper: env.PASSWORD_PEPPER,
      dataEncryptionKey: decodeKey(env.DATA_ENCRYPTION_KEY),
      generated: false,
    };
  }
  const file = path.join(env.DATA_DIR, 'secrets.json');
  let stored: StoredSecrets;
  if (existsSync(file)) {
    stored = JSON.parse(readFileSync(file, 'utf8')) as StoredSecrets;
  } else {
    stored = {
      session_secret: randomBytes(32).toString('base64url'),
      password_pepper: randomBytes(32).toString('base64url'),
      data_encryption_key: randomBytes(32).toString('hex'),
    };
    mkdirSync(env.DATA_DIR, { recursive: true });
    writeFileSync(file, JSON.stringify(stored, null, 2), { mode: 0o600 });
    chmodSync(file, 0o600);
    console.warn(
      `[config] Generated embedded-mode secrets into ${file}. Set SESSION_SECRET, PASSWORD_PEPPER and ` +
        'DATA_ENCRYPTION_KEY (and DATABASE_URL) for a production deployment.',
    );
  }
  return {
    sessionSecret: env.SESSION_SECRET ?? stored.session_secret,
    passwordPepper: env.PASSWORD_PEPPER ?? stored.password_pepper,
    dataEncryptionKey: decodeKey(env.DATA_ENCRYPTION_KEY ?? stored.data_encryption_key),
    generated: true,
  };
}
