import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db';
import { oidcModels } from '@/lib/db/schema';
import { countModels, upsertModel } from './adapter.repo';
import { concealLegacyModels, DrizzleAdapter, sweepExpiredOidcModels } from './adapter';

describe('the oidc-provider storage adapter', () => {
  it('stores, finds, consumes and destroys models, keeping models apart', async () => {
    const codes = new DrizzleAdapter('AuthorizationCode');
    const tokens = new DrizzleAdapter('AccessToken');
    await codes.upsert('same-id', { grantId: 'g1', clientId: 'c1', accountId: 'u1' }, 60);
    await tokens.upsert('same-id', { grantId: 'g1', clientId: 'c1', scope: 'openid' }, 60);
    expect(await codes.find('same-id')).toEqual({ grantId: 'g1', clientId: 'c1', accountId: 'u1' });
    expect((await tokens.find('same-id'))?.scope).toBe('openid');
    await codes.consume('same-id');
    expect((await codes.find('same-id'))?.consumed).toEqual(expect.any(Number));
    expect((await tokens.find('same-id'))?.consumed).toBeUndefined();
    await codes.destroy('same-id');
    expect(await codes.find('same-id')).toBeUndefined();
    expect(await tokens.find('same-id')).toBeDefined();
  });

  it('finds sessions by uid and device codes by user code', async () => {
    const sessions = new DrizzleAdapter('Session');
    await sessions.upsert('s1', { uid: 'uid-1', accountId: 'u1' }, 3600);
    expect((await sessions.findByUid('uid-1'))?.accountId).toBe('u1');
    expect(await sessions.findByUid('uid-2')).toBeUndefined();
    const deviceCodes = new DrizzleAdapter('DeviceCode');
    await deviceCodes.upsert('d1', { userCode: 'ABCD-EFGH', grantId: 'g9' }, 600);
    expect((await deviceCodes.findByUserCode('ABCD-EFGH'))?.grantId).toBe('g9');
  });

  // ASVS V9.2.1
  it('never returns an expired model, and sweeps expired rows', async () => {
    let now = new Date('2026-11-22T10:00:00Z');
    const codes = new DrizzleAdapter('AuthorizationCode', () => now);
    await codes.upsert('short', { grantId: 'g2' }, 60);
    expect(await codes.find('short')).toBeDefined();
    now = new Date('2026-11-22T10:01:01Z');
    expect(await codes.find('short')).toBeUndefined();
    expect(await sweepExpiredOidcModels(now)).toBeGreaterThanOrEqual(1);
    expect(await countModels(await getDb(), 'AuthorizationCode')).toBe(0);
  });

  it('revokes every artefact of a grant, and only that grant', async () => {
    const grant = new DrizzleAdapter('Grant');
    await grant.upsert('grant-a', { accountId: 'u1', clientId: 'c1' }, 3600);
    for (const model of ['AuthorizationCode', 'AccessToken', 'RefreshToken']) {
      await new DrizzleAdapter(model).upsert(`${model}-a`, { grantId: 'grant-a' }, 3600);
      await new DrizzleAdapter(model).upsert(`${model}-b`, { grantId: 'grant-b' }, 3600);
    }
    await grant.revokeByGrantId('grant-a');
    expect(await grant.find('grant-a')).toBeUndefined();
    for (const model of ['AuthorizationCode', 'AccessToken', 'RefreshToken']) {
      expect(await new DrizzleAdapter(model).find(`${model}-a`)).toBeUndefined();
      expect(await new DrizzleAdapter(model).find(`${model}-b`)).toBeDefined();
    }
  });

  it('replaces a model on upsert and clears a previous consumption', async () => {
    const tokens = new DrizzleAdapter('RefreshToken');
    await tokens.upsert('rt', { grantId: 'g3', rotations: 0 }, 600);
    await tokens.consume('rt');
    await tokens.upsert('rt', { grantId: 'g3', rotations: 1 }, 600);
    expect(await tokens.find('rt')).toEqual({ grantId: 'g3', rotations: 1 });
  });
});

describe('bearer secrets at rest', () => {
  const rowsOf = async (model: string) => (await getDb()).select().from(oidcModels).where(eq(oidcModels.model, model));
  const secret = () => randomBytes(32).toString('base64url');

  it('keys secret-id models by a keyed hash and stores no id in the payload, yet returns exactly what was stored', async () => {
    const token = secret();
    const payload = { jti: token, kind: 'AccessToken', grantId: 'g-at', accountId: 'u1', clientId: 'c1', scope: 'openid', exp: 2_000_000_000 };
    await new DrizzleAdapter('AccessToken').upsert(token, payload, 600);
    const [row] = (await rowsOf('AccessToken')).filter((r) => r.grantId === 'g-at');
    expect(row!.id).toMatch(/^h1\./);
    expect(JSON.stringify(row)).not.toContain(token);
    expect(await new DrizzleAdapter('AccessToken').find(token)).toEqual(payload);
    expect(await new DrizzleAdapter('AccessToken').find(row!.id)).toBeUndefined(); // the stored key is no credential
  });

  it('seals secrets inside payloads: the session id an interaction began with, URLs holding the interaction id', async () => {
    const uid = secret();
    const sessionId = secret();
    const payload = {
      jti: uid,
      kind: 'Interaction',
      returnTo: `http://localhost:3000/oauth/authorize/${uid}`,
      session: { uid: 'session-uid', cookie: sessionId, accountId: 'u1' },
      params: { client_id: 'c1' },
    };
    await new DrizzleAdapter('Interaction').upsert(uid, payload, 600);
    const stored = JSON.stringify(await rowsOf('Interaction'));
    expect(stored).not.toContain(uid);
    expect(stored).not.toContain(sessionId);
    expect(await new DrizzleAdapter('Interaction').find(uid)).toEqual(payload);
  });

  it('finds a session by its uid (a reference, not a credential) without its id', async () => {
    const id = secret();
    await new DrizzleAdapter('Session').upsert(id, { jti: id, uid: 'uid-s', accountId: 'u2', state: { secret: 'xsrf-secret-value' } }, 600);
    expect(JSON.stringify(await rowsOf('Session'))).not.toMatch(new RegExp(`${id}|xsrf-secret-value`));
    expect(await new DrizzleAdapter('Session').findByUid('uid-s')).toEqual({ uid: 'uid-s', accountId: 'u2', state: { secret: 'xsrf-secret-value' } });
  });

  it('keeps public ids as they are: clients and grants are references', async () => {
    await new DrizzleAdapter('Grant').upsert('grant-public', { jti: 'grant-public', accountId: 'u3', clientId: 'c3' }, 600);
    expect((await rowsOf('Grant')).map((r) => r.id)).toContain('grant-public');
  });

  it('rewrites rows stored in clear by an earlier version; the provider still accepts the token, once', async () => {
    const { mintAccessToken } = await import('@/tests/helpers/oauth');
    const { resolveAccessToken } = await import('./bearer');
    const userId = '00000000-0000-4000-8000-000000000001';
    const { value } = await mintAccessToken(userId, 'identity.profile.read');
    const current = await new DrizzleAdapter('AccessToken').find(value);
    // What the earlier adapter wrote: the token as the key, and in the payload.
    await new DrizzleAdapter('AccessToken').destroy(value);
    await upsertModel(await getDb(), {
      model: 'AccessToken',
      id: value,
      payload: current as Record<string, unknown>,
      grantId: current!.grantId!,
      expiresAt: new Date(Date.now() + 600_000),
    });
    expect(JSON.stringify(await rowsOf('AccessToken'))).toContain(value);

    expect(await concealLegacyModels()).toBeGreaterThanOrEqual(1);
    expect(JSON.stringify(await rowsOf('AccessToken'))).not.toContain(value);
    expect(await new DrizzleAdapter('AccessToken').find(value)).toEqual(current);
    expect((await resolveAccessToken(value, new Date()))?.userId).toBe(userId);
    expect(await concealLegacyModels()).toBe(0);
  });
});
