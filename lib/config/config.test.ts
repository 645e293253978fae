import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './index';

const SECRETS = {
  SESSION_SECRET: 's'.repeat(32),
  PASSWORD_PEPPER: 'p'.repeat(32),
  DATA_ENCRYPTION_KEY: 'ab'.repeat(32),
};

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('configuration', () => {
  it('refuses to start on Postgres without operator secrets, naming each one', () => {
    const problems = problemsOf({ DATABASE_URL: 'postgres://db/identity' });
    expect(problems.join('\n')).toMatch(/SESSION_SECRET: is required/);
    expect(problems.join('\n')).toMatch(/PASSWORD_PEPPER: is required/);
    expect(problems.join('\n')).toMatch(/DATA_ENCRYPTION_KEY: is required/);
  });

  it('refuses malformed settings with clear messages', () => {
    const problems = problemsOf({
      DATABASE_URL: 'mysql://db',
      BASE_URL: 'https://id.example.com/path',
      SESSION_SECRET: 'short',
      DATA_ENCRYPTION_KEY: 'not-a-key',
      RATE_LIMIT_SCALE: '0',
      PORT: 'eighty',
      OAUTH_ENABLED: 'maybe',
    }).join('\n');
    for (const key of ['DATABASE_URL', 'BASE_URL', 'SESSION_SECRET', 'DATA_ENCRYPTION_KEY', 'RATE_LIMIT_SCALE', 'PORT', 'OAUTH_ENABLED']) {
      expect(problems).toContain(key);
    }
  });

  it('derives origin, rp id and cookie security from BASE_URL', () => {
    const config = loadConfig({ ...SECRETS, DATABASE_URL: 'postgres://db/identity', BASE_URL: 'https://id.example.com' });
    expect(config.origin).toBe('https://id.example.com');
    expect(config.rpId).toBe('id.example.com');
    expect(config.secureCookies).toBe(true);
    expect(config.database).toEqual({ kind: 'postgres', url: 'postgres://db/identity' });
    expect(config.dataEncryptionKey).toHaveLength(32);
  });

  // ASVS V11.4.2
  it('defaults to the embedded database on localhost with the documented lifetimes', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cfg-'));
    const config = loadConfig({ DATA_DIR: dir });
    expect(config.baseUrl).toBe('http://localhost:3000');
    expect(config.database).toEqual({ kind: 'embedded', dir: `${dir}/pglite` });
    expect(config.ttl).toMatchObject({ sessionIdle: 86400, sessionAbsolute: 604800, stepUp: 600, verificationCode: 600, webauthnChallenge: 300 });
    expect(config.passwordIterations).toBe(600_000);
    expect(config.rateLimitScale).toBe(1);
  });

  // ASVS V13.3.2
  it('generates embedded secrets once, privately, and reuses them', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cfg-'));
    const first = loadConfig({ DATA_DIR: dir });
    const file = path.join(dir, 'secrets.json');
    expect(existsSync(file)).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(first.secretsGenerated).toBe(true);
    const second = loadConfig({ DATA_DIR: dir });
    expect(second.sessionSecret).toBe(first.sessionSecret);
    expect(second.passwordPepper).toBe(first.passwordPepper);
    expect(second.dataEncryptionKey.equals(first.dataEncryptionKey)).toBe(true);
    expect(readFileSync(file, 'utf8')).toContain(first.sessionSecret);
  });

  it('uses operator secrets as given and never writes them to disk', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cfg-'));
    const config = loadConfig({ ...SECRETS, DATA_DIR: dir });
    expect(config.secretsGenerated).toBe(false);
    expect(config.sessionSecret).toBe(SECRETS.SESSION_SECRET);
    expect(existsSync(path.join(dir, 'secrets.json'))).toBe(false);
  });

  describe('local development (loopback webhook receivers, /dev/mail)', () => {
    const embedded = (env: Record<string, string> = {}) => loadConfig({ ...SECRETS, DATA_DIR: mkdtempSync(path.join(tmpdir(), 'cfg-')), ...env });

    it('is on for the embedded database at a loopback BASE_URL, the out-of-the-box run', () => {
      expect(embedded().localDevelopment).toBe(true);
      expect(embedded({ BASE_URL: 'http://127.0.0.1:4000' }).localDevelopment).toBe(true);
      expect(embedded({ BASE_URL: 'http://[::1]:4000' }).localDevelopment).toBe(true);
    });

    it('is off for an embedded run at a public address, unless asked for', () => {
      expect(embedded({ BASE_URL: 'https://id.example.com' }).localDevelopment).toBe(false);
      expect(embedded({ BASE_URL: 'http://192.168.1.20:3000' }).localDevelopment).toBe(false);
      expect(embedded({ BASE_URL: 'http://192.168.1.20:3000', LOCAL_DEVELOPMENT: 'true' }).localDevelopment).toBe(true);
      expect(embedded({ LOCAL_DEVELOPMENT: 'false' }).localDevelopment).toBe(false);
    });

    it('is always off on PostgreSQL, and asking for it there stops start-up', () => {
      expect(loadConfig({ ...SECRETS, DATABASE_URL: 'postgres://db/identity' }).localDevelopment).toBe(false);
      expect(loadConfig({ ...SECRETS, DATABASE_URL: 'postgres://db/identity', BASE_URL: 'http://localhost:3000' }).localDevelopment).toBe(false);
      for (const value of ['true', '1']) {
        expect(problemsOf({ ...SECRETS, DATABASE_URL: 'postgres://db/identity', LOCAL_DEVELOPMENT: value }).join('\n')).toMatch(
          /LOCAL_DEVELOPMENT: cannot be on when DATABASE_URL is set/,
        );
      }
      expect(problemsOf({ ...SECRETS, LOCAL_DEVELOPMENT: 'maybe' }).join('\n')).toContain('LOCAL_DEVELOPMENT');
    });
  });
});
