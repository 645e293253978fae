/**
 * API keys through the real pipeline and database: the browser contract (session + step-up), the
 * pipeline's API-key term, and the bearer read that accepts an API key or an OAuth token.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db';
import { apiKeys, auditEvents, idempotencyRecords } from '@/lib/db/schema';
import { newClient, useMailbox } from '@/tests/helpers/accounts';
import { call, operation, problemOf } from '@/tests/helpers/http';
import { mintAccessToken } from '@/tests/helpers/oauth';
import { asBrowser, person, type Person } from '@/tests/helpers/organizations';
import { recordStatements } from '@/tests/helpers/statements';
import { generateApiKey, hashApiKey, isWellFormedApiKey } from './api-key-format';
import { MAX_LIVE_API_KEYS } from './api-keys';

const mailbox = useMailbox();
const KEYS = '/api/developer/api-keys';
const BEARER_KEYS = '/api/v1/developer/api-keys';
const minutes = (n: number) => () => new Date(Date.now() + n * 60_000);

interface Created {
  id: string;
  api_key: string;
  name: string;
  scopes: string[];
  created_at: string;
  expires_at: string | null;
}

async function createKey(owner: Person, body: Record<string, unknown> = {}): Promise<Created> {
  const response = await asBrowser(owner.browser, 'POST', KEYS, { body: { name: 'CI deploys', scopes: ['identity.developer.read'], ...body } });
  if (response.status !== 201) throw new Error(`create failed: ${response.status} ${await response.text()}`);
  return (await response.json()) as Created;
}

function withBearer(token: string, options: { now?: () => Date; path?: string } = {}) {
  return call(operation('GET', options.path ?? BEARER_KEYS), {
    headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': newClient() },
    now: options.now,
  });
}

async function rowOf(id: string) {
  const [row] = await (await getDb()).select().from(apiKeys).where(eq(apiKeys.id, id));
  return row!;
}

describe('the key format', () => {
  it('is idk_, 52 base32 characters, _ and a 6-character checksum; a changed character fails the checksum', () => {
    const key = generateApiKey();
    expect(key).toMatch(/^idk_[a-z2-7]{52}_[a-z2-7]{6}$/);
    expect(isWellFormedApiKey(key)).toBe(true);
    const flipped = `${key.slice(0, 10)}${key[10] === 'a' ? 'b' : 'a'}${key.slice(11)}`;
    expect(isWellFormedApiKey(flipped)).toBe(false);
    expect(isWellFormedApiKey(key.toUpperCase())).toBe(false);
    expect(isWellFormedApiKey(`${key}x`)).toBe(false);
    expect(generateApiKey()).not.toBe(key);
  });
});

describe('API keys (browser contract)', () => {
  it('shows the key once: the list and the database hold only its prefix and hash', async () => {
    const ada = await person(mailbox, 'ada');
    const created = await createKey(ada, { scopes: ['identity.webhooks.test', 'identity.developer.read'] });
    expect(created).toMatchObject({ name: 'CI deploys', scopes: ['identity.developer.read', 'identity.webhooks.test'], expires_at: null });
    expect(isWellFormedApiKey(created.api_key)).toBe(true);

    const list = await asBrowser(ada.browser, 'GET', KEYS);
    expect(list.status).toBe(200);
    const text = await list.text();
    expect(text).not.toContain(created.api_key);
    expect(JSON.parse(text)).toEqual({
      api_keys: [
        {
          id: created.id,
          name: 'CI deploys',
          prefix: created.api_key.slice(0, 12),
          scopes: created.scopes,
          created_at: created.created_at,
          expires_at: null,
          last_used_at: null,
          status: 'active',
          created_by: { kind: 'person', client_id: null, grant_id: null },
        },
      ],
      has_more: false,
      next_cursor: null,
    });

    const row = await rowOf(created.id);
    expect(row.keyHash).toBe(hashApiKey(created.api_key));
    expect(Object.values(row).map(String)).not.toContain(created.api_key);
    const audit = await (await getDb()).select().from(auditEvents).where(eq(auditEvents.subjectId, created.id));
    expect(audit.map((e) => e.action)).toEqual(['api_key.created']);
    expect(JSON.stringify(audit)).not.toContain(created.api_key);
    expect(JSON.stringify(audit)).not.toContain('CI deploys');
  });

  it('replays a retried creation with the same key, kept only sealed in the idempotency record', async () => {
    const ada = await person(mailbox, 'ada');
    const send = () =>
      asBrowser(ada.browser, 'POST', KEYS, { body: { name: 'retried', scopes: ['identity.developer.read'] }, headers: { 'idempotency-key': 'create-key-1' } });
    const first = (await (await send()).json()) as Created;
    const second = (await (await send()).json()) as Created;
    expect(second).toEqual(first);
    const keys = await (await getDb()).select().from(apiKeys).where(eq(apiKeys.userId, ada.userId));
    expect(keys).toHaveLength(1);
    const stored = await (
      await getDb()
    )
      .select()
      .from(idempotencyRecords)
      .where(eq(idempotencyRecords.principal, `user:${ada.userId}`));
    expect(stored).toHaveLength(1);
    // The record is sealed: neither the key nor any other field of the answer is readable in a dump.
    expect(JSON.stringify(stored)).not.toContain(first.api_key);
    expect(JSON.stringify(stored)).not.toContain(first.id);
  });

  it('takes a non-empty subset of the developer scopes, a one-line name and a future expiry within a year', async () => {
    const ada = await person(mailbox, 'ada');
    const refused = [
      { name: 'x', scopes: [] },
      { name: 'x', scopes: ['identity.profile.read'] },
      { name: 'x', scopes: ['identity.api_keys.create'] },
      { name: 'two\nlines', scopes: ['identity.developer.read'] },
      { name: '', scopes: ['identity.developer.read'] },
      { name: 'x', scopes: ['identity.developer.read'], expires_at: new Date(Date.now() - 1000).toISOString() },
      { name: 'x', scopes: ['identity.developer.read'], expires_at: new Date(Date.now() + 400 * 86_400_000).toISOString() },
      { name: 'x', scopes: ['identity.developer.read'], extra: true },
    ];
    for (const body of refused) {
      const response = await asBrowser(ada.browser, 'POST', KEYS, { body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect((await problemOf(response)).errors).toEqual(expect.arrayContaining([expect.objectContaining({ path: expect.stringMatching(/^body/) })]));
    }
    const list = await (await asBrowser(ada.browser, 'GET', KEYS)).json();
    expect(list.api_keys).toEqual([]);
    const expiresAt = new Date(Date.now() + 30 * 86_400_000).toISOString();
    expect((await createKey(ada, { expires_at: expiresAt })).expires_at).toBe(expiresAt);
  });

  it('needs a recent step-up for the list, creation and revocation', async () => {
    const ada = await person(mailbox, 'ada');
    const key = await createKey(ada);
    const later = minutes(11);
    const stale = [
      await asBrowser(ada.browser, 'GET', KEYS, { now: later }),
      await asBrowser(ada.browser, 'POST', KEYS, { body: { name: 'x', scopes: ['identity.developer.read'] }, now: later }),
      await asBrowser(ada.browser, 'POST', `${KEYS}/revoke`, { body: { api_key_id: key.id }, now: later }),
    ];
    for (const response of stale) {
      expect(response.status).toBe(403);
      expect(await problemOf(response)).toMatchObject({ code: 'step_up_required', step_up: { methods: ['password'] } });
    }
    expect((await rowOf(key.id)).revokedAt).toBeNull();
    expect((await asBrowser(null, 'GET', KEYS)).status).toBe(401);
  });

  it("isolates owners: another owner's key is neither listed nor revocable (404)", async () => {
    const ada = await person(mailbox, 'ada');
    const eve = await person(mailbox, 'eve');
    const key = await createKey(ada);
    expect((await (await asBrowser(eve.browser, 'GET', KEYS)).json()).api_keys).toEqual([]);
    for (const id of [key.id, '00000000-0000-4000-8000-000000000000', 'not-an-id']) {
      const response = await asBrowser(eve.browser, 'POST', `${KEYS}/revoke`, { body: { api_key_id: id } });
      expect(response.status).toBe(404);
      expect((await problemOf(response)).code).toBe('not_found');
    }
    expect((await rowOf(key.id)).revokedAt).toBeNull();
    expect((await withBearer(key.api_key)).status).toBe(200);
  });

  it('revokes once (409 the second time) and the key stops authenticating on the next request', async () => {
    const ada = await person(mailbox, 'ada');
    const key = await createKey(ada);
    expect((await withBearer(key.api_key)).status).toBe(200);
    const revoke = () => asBrowser(ada.browser, 'POST', `${KEYS}/revoke`, { body: { api_key_id: key.id } });
    const first = await revoke();
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ revoked: true });
    const after = await withBearer(key.api_key);
    expect(after.status).toBe(401);
    expect((await problemOf(after)).code).toBe('unauthenticated');
    const second = await revoke();
    expect(second.status).toBe(409);
    expect((await problemOf(second)).code).toBe('conflict');
    const list = await (await asBrowser(ada.browser, 'GET', KEYS)).json();
    expect(list.api_keys[0]).toMatchObject({ id: key.id, status: 'revoked' });
    const audit = await (await getDb()).select().from(auditEvents).where(eq(auditEvents.subjectId, key.id));
    expect(audit.map((e) => e.action).sort()).toEqual(['api_key.created', 'api_key.revoked']);
  });

  it(`caps live keys per owner at ${MAX_LIVE_API_KEYS} (409); a revoked key frees a place`, async () => {
    const ada = await person(mailbox, 'ada');
    const now = new Date();
    await (await getDb()).insert(apiKeys).values(
      Array.from({ length: MAX_LIVE_API_KEYS }, (_, i) => ({
        id: crypto.randomUUID(),
        userId: ada.userId,
        name: `key ${i}`,
        keyHash: hashApiKey(generateApiKey()),
        prefix: 'idk_test',
        scopes: ['identity.developer.read'],
        createdAt: now,
      })),
    );
    const refused = await asBrowser(ada.browser, 'POST', KEYS, { body: { name: 'one more', scopes: ['identity.developer.read'] } });
    expect(refused.status).toBe(409);
    expect((await problemOf(refused)).code).toBe('conflict');
    const oldest = (await (await asBrowser(ada.browser, 'GET', KEYS)).json()).api_keys[0].id as string;
    expect((await asBrowser(ada.browser, 'POST', `${KEYS}/revoke`, { body: { api_key_id: oldest } })).status).toBe(200);
    await createKey(ada);
  });
});

describe('the API-key term and the bearer read', () => {
  it('authenticates the key: the owner’s keys, authentication api_key and the key’s scopes', async () => {
    const ada = await person(mailbox, 'ada');
    const eve = await person(mailbox, 'eve');
    await createKey(eve);
    const key = await createKey(ada, { scopes: ['identity.developer.read', 'identity.applications.manage'] });
    const response = await withBearer(key.api_key);
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toMatchObject({ authentication: 'api_key', scopes: ['identity.developer.read', 'identity.applications.manage'], has_more: false });
    expect(body.api_keys.map((k: { id: string }) => k.id)).toEqual([key.id]);
    expect(JSON.stringify(body)).not.toContain(key.api_key);
  });

  it('refuses a key without identity.developer.read with 403 insufficient_scope', async () => {
    const ada = await person(mailbox, 'ada');
    const key = await createKey(ada, { scopes: ['identity.webhooks.test'] });
    const response = await withBearer(key.api_key);
    expect(response.status).toBe(403);
    expect((await problemOf(response)).code).toBe('insufficient_scope');
  });

  it('refuses an expired key with 401, and lists it as expired', async () => {
    const ada = await person(mailbox, 'ada');
    const key = await createKey(ada, { expires_at: new Date(Date.now() + 60 * 60_000).toISOString() });
    const lasting = await createKey(ada, { name: 'lasting' });
    expect((await withBearer(key.api_key, { now: minutes(59) })).status).toBe(200);
    const expired = await withBearer(key.api_key, { now: minutes(61) });
    expect(expired.status).toBe(401);
    expect((await problemOf(expired)).code).toBe('unauthenticated');
    const list = await (await withBearer(lasting.api_key, { now: minutes(61) })).json();
    expect(list.api_keys.map((k: { id: string; status: string }) => [k.id, k.status])).toEqual([
      [lasting.id, 'active'],
      [key.id, 'expired'],
    ]);
  });

  it('refuses malformed keys and wrong checksums with 401, without looking them up', async () => {
    const ada = await person(mailbox, 'ada');
    const key = await createKey(ada);
    const random = key.api_key.slice(4, 56);
    const badChecksum = `idk_${random}_${key.api_key.endsWith('aaaaaa') ? 'bbbbbb' : 'aaaaaa'}`;
    const forged = ['idk_forged', `${key.api_key}0`, key.api_key.toUpperCase().replace('IDK_', 'idk_'), badChecksum];
    const recording = await recordStatements();
    try {
      for (const token of forged) {
        const response = await withBearer(token);
        expect(response.status, token).toBe(401);
        expect((await problemOf(response)).code).toBe('unauthenticated');
      }
    } finally {
      recording.stop();
    }
    expect(recording.statements.filter((s) => s.includes('api_keys'))).toEqual([]);
    // A well-formed key that was never issued is looked up, and refused.
    const unknown = generateApiKey();
    expect((await withBearer(unknown)).status).toBe(401);
  });

  it('writes last_used_at at most once a minute per key', async () => {
    const ada = await person(mailbox, 'ada');
    const key = await createKey(ada);
    const t0 = new Date(Date.now() + 1000);
    const at = (ms: number) => () => new Date(t0.getTime() + ms);
    expect((await withBearer(key.api_key, { now: at(0) })).status).toBe(200);
    expect((await rowOf(key.id)).lastUsedAt).toEqual(t0);
    // Within the minute a request reads the key and writes nothing: not even a conditional UPDATE is sent.
    const recording = await recordStatements();
    try {
      expect((await withBearer(key.api_key, { now: at(30_000) })).status).toBe(200);
      expect((await withBearer(key.api_key, { now: at(59_000) })).status).toBe(200);
    } finally {
      recording.stop();
    }
    expect(recording.statements.filter((statement) => /^\s*update\b/i.test(statement) && statement.includes('api_keys'))).toEqual([]);
    expect((await rowOf(key.id)).lastUsedAt).toEqual(t0);
    expect((await withBearer(key.api_key, { now: at(61_000) })).status).toBe(200);
    expect((await rowOf(key.id)).lastUsedAt).toEqual(at(61_000)());
    const list = await (await asBrowser(ada.browser, 'GET', KEYS)).json();
    expect(list.api_keys[0].last_used_at).toBe(at(61_000)().toISOString());
  });

  it('accepts an OAuth token with identity.developer.read (authentication oauth)', async () => {
    const ada = await person(mailbox, 'ada');
    const key = await createKey(ada);
    const { value } = await mintAccessToken(ada.userId, 'identity.developer.read');
    const response = await withBearer(value);
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toMatchObject({ authentication: 'oauth', scopes: ['identity.developer.read'] });
    expect(body.api_keys.map((k: { id: string }) => k.id)).toEqual([key.id]);
    const { value: narrow } = await mintAccessToken(ada.userId, 'identity.profile.read');
    expect((await problemOf(await withBearer(narrow))).code).toBe('insufficient_scope');
  });

  it('is refused (401) where only OAuth tokens are accepted: /api/v1/me', async () => {
    const ada = await person(mailbox, 'ada');
    const key = await createKey(ada, { scopes: ['identity.developer.read', 'identity.applications.manage', 'identity.webhooks.test'] });
    const response = await withBearer(key.api_key, { path: '/api/v1/me' });
    expect(response.status).toBe(401);
    expect((await problemOf(response)).code).toBe('unauthenticated');
  });
});
