import { describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db';
import { countModels } from './adapter.repo';
import { DrizzleAdapter, sweepExpiredOidcModels } from './adapter';

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
