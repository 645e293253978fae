import { pbkdf2Sync, createHmac } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { TEST_ENV, withEnv } from '@/tests/setup/state';
import { hashPassword, verifyPassword, wrapProof } from './password-hashing';
import { acceptablePassword } from './password-policy';

let restore: (() => void) | null = null;
afterEach(() => {
  restore?.();
  restore = null;
});

describe('password proofs', () => {
  // ASVS V11.4.2
  it('are PBKDF2-HMAC-SHA256 over the peppered, NFC-normalised password with a per-credential salt', async () => {
    const proof = await hashPassword('Ame\u0301lie passphrase');
    const expected = pbkdf2Sync(
      createHmac('sha256', TEST_ENV.PASSWORD_PEPPER!).update('Am\u00e9lie passphrase'.normalize('NFC')).digest(),
      Buffer.from(proof.salt, 'base64url'),
      1000,
      32,
      'sha256',
    );
    expect(proof.proof).toBe(expected.toString('base64url'));
    expect(proof.chain).toEqual([1000]);
    // Composed and decomposed forms are the same password.
    expect((await verifyPassword('Am\u00e9lie passphrase', proof)).ok).toBe(true);
    expect((await verifyPassword('Amelie passphrase', proof)).ok).toBe(false);
    expect((await hashPassword('Am\u00e9lie passphrase')).salt).not.toBe(proof.salt);
  });

  it('depend on the pepper: a database copy alone verifies nothing', async () => {
    const proof = await hashPassword('pepper protects this');
    restore = withEnv({ PASSWORD_PEPPER: 'another-pepper-0123456789abcdef0123456789' });
    expect((await verifyPassword('pepper protects this', proof)).ok).toBe(false);
  });

  it('raise their work factor without the password (chained), and ask for a rehash at the next sign-in', async () => {
    const original = await hashPassword('chain me up please');
    const wrapped = await wrapProof(original, 2000);
    expect(wrapped.chain).toEqual([1000, 2000]);
    expect(wrapped.proof).not.toBe(original.proof);
    expect(await verifyPassword('chain me up please', wrapped)).toEqual({ ok: true, rehash: true });
    expect(await verifyPassword('chain me up please', original)).toEqual({ ok: true, rehash: false });
    restore = withEnv({ PASSWORD_PBKDF2_ITERATIONS: '3000' });
    expect((await verifyPassword('chain me up please', original)).rehash).toBe(true);
  });
});

const ADA = { email: 'ada.lovelace@example.test' };

describe('password policy', () => {
  // ASVS V6.2.1, V6.2.5, V6.2.9
  it('accepts 8-128 characters of anything, counting characters not bytes', async () => {
    expect(await acceptablePassword('ñ'.repeat(8), ADA)).toBe('ñ'.repeat(8));
    expect(await acceptablePassword('🔑'.repeat(128), ADA)).toHaveLength(256);
    await expect(acceptablePassword('🔑'.repeat(129), ADA)).rejects.toMatchObject({ code: 'weak_password' });
    await expect(acceptablePassword('seven77', ADA)).rejects.toMatchObject({ code: 'weak_password' });
  });

  // ASVS V6.2.4
  it('refuses common passwords from the offline list, whatever their case', async () => {
    for (const common of ['password', 'iloveyou123', 'PASSWORD1', 'baseball1']) {
      await expect(acceptablePassword(common, ADA)).rejects.toMatchObject({ code: 'weak_password' });
    }
  });

  it('refuses passwords built from the e-mail address or the service (NIST SP 800-63B context words)', async () => {
    // BASE_URL is http://localhost:3000 in tests.
    for (const built of [
      'ada.lovelace@example.test',
      'ADA.LOVELACE',
      'lovelace1815!',
      'Lovelace-2026',
      'identityservice',
      'Identity Service 1',
      'localhost123',
      'xx-ada.lovelace-xx',
    ]) {
      await expect(acceptablePassword(built, ADA), built).rejects.toMatchObject({ code: 'weak_password', extras: { errors: [{ path: 'body.password' }] } });
    }
    // Context words inside a longer passphrase of other words are fine; short pieces are not words.
    for (const fine of ['lovelace wrote the first program', 'ada and the analytical engine', 'my identity is mine alone']) {
      expect(await acceptablePassword(fine, ADA), fine).toBe(fine);
    }
  });
});
