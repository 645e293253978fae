import { createPublicKey, createPrivateKey, sign, verify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db';
import { oidcKeys } from '@/lib/db/schema';
import { withEnv } from '@/tests/setup/state';
import { cookieKeys, ensureKeys, publicJwk, retireRetiringKeys, rotateKeys, signingJwks } from './keys';

describe('provider keys', () => {
  it('are generated once (RS256 and ES256 signing, one cookie key) and stored encrypted', async () => {
    const now = new Date();
    await ensureKeys(now);
    await ensureKeys(now);
    const jwks = await signingJwks();
    expect(jwks.map((k) => k.alg).sort()).toEqual(['ES256', 'RS256']);
    expect(await cookieKeys()).toHaveLength(1);
    const rows = await (await getDb()).select().from(oidcKeys);
    expect(rows).toHaveLength(3);
    for (const row of rows) {
      expect(row.sealed).toMatch(/^v1\./);
      expect(row.sealed).not.toContain('"d"');
    }
    // A signing key signs, and its public half verifies.
    const rsa = jwks.find((k) => k.alg === 'RS256')!;
    const signature = sign('sha256', Buffer.from('payload'), createPrivateKey({ key: rsa, format: 'jwk' }));
    expect(verify('sha256', Buffer.from('payload'), createPublicKey({ key: publicJwk(rsa), format: 'jwk' }), signature)).toBe(true);
    expect(publicJwk(rsa)).not.toHaveProperty('d');
  });

  // ASVS V11.3.3
  it('cannot be read with another DATA_ENCRYPTION_KEY', async () => {
    await ensureKeys(new Date());
    const restore = withEnv({ DATA_ENCRYPTION_KEY: 'aa'.repeat(32) });
    try {
      await expect(signingJwks()).rejects.toThrow();
    } finally {
      restore();
    }
  });

  it('rotate with both keys published during the roll-over, then retire the old ones', async () => {
    await ensureKeys(new Date());
    const before = (await signingJwks()).map((k) => k.kid);
    await rotateKeys(new Date());
    const during = await signingJwks();
    expect(during).toHaveLength(4);
    // New active keys come first: they are the ones that sign.
    expect(before).not.toContain(during[0]!.kid);
    expect(
      during
        .slice(2)
        .map((k) => k.kid)
        .sort(),
    ).toEqual([...before].sort());
    expect(await cookieKeys()).toHaveLength(2);
    // Refused while a token the old keys signed may be valid; a leaked key is retired at once (force).
    await expect(retireRetiringKeys(new Date())).rejects.toThrow(/still verify tokens/);
    await retireRetiringKeys(new Date(), { force: true });
    const after = (await signingJwks()).map((k) => k.kid);
    expect(after).toHaveLength(2);
    expect(after.some((kid) => before.includes(kid))).toBe(false);
    expect(await cookieKeys()).toHaveLength(1);
  });
});
