/**
 * Account deletion requests through the real pipeline and database: the person's half (a passkey
 * step-up when the account has a passkey, the confirmation words, one pending request, cancel, a mail
 * for each), and the operator's completion, after which no row of any table still carries the
 * person's address, name, passkey or credential (the walk reads every table, so a table added later
 * is walked too).
 */
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db';
import { deletionRequests, organizationDomains, passkeys, passwordCredentials, users } from '@/lib/db/schema';
import { as, post, useMailbox, type Browser } from '@/tests/helpers/accounts';
import { call, operation, ORIGIN, problemOf } from '@/tests/helpers/http';
import { mintAccessToken } from '@/tests/helpers/oauth';
import { asBrowser, createOrganization, invite, joinAs, person, type Person } from '@/tests/helpers/organizations';
import { directory, provision, userBody } from '@/tests/helpers/scim';
import { domainClaim } from '@/tests/helpers/organization-fixtures';
import { SoftAuthenticator } from '@/tests/helpers/soft-authenticator';
import { completeDeletion, reviewQueue } from '@/lib/privacy';

const mailbox = useMailbox();
const PATH = '/api/auth/privacy/deletion-request';

const ask = (browser: Browser, confirmation = 'DELETE_MY_ACCOUNT', headers: Record<string, string> = { 'idempotency-key': randomUUID() }) =>
  post(PATH, { confirmation }, { headers: { ...as(browser), ...headers } });
const cancel = (browser: Browser, confirmation = 'CANCEL_DELETION') =>
  post(`${PATH}/cancel`, { confirmation }, { headers: { ...as(browser), 'idempotency-key': randomUUID() } });
const read = async (browser: Browser) =>
  (await (await call(operation('GET', PATH), { headers: { ...as(browser) } })).json()) as {
    deletion_request: { id: string; status: string } | null;
    blocked_by: { organization_id: string; reason: string }[];
  };

async function addPasskey(owner: Person): Promise<SoftAuthenticator> {
  const authenticator = new SoftAuthenticator(ORIGIN);
  const options = (await (await post('/api/auth/passkeys/options', {}, { headers: as(owner.browser) })).json()) as { options: never; challenge_id: string };
  const added = await post(
    '/api/auth/passkeys',
    { challenge_id: options.challenge_id, credential: authenticator.create(options.options), name: 'Laptop' },
    { headers: as(owner.browser) },
  );
  expect(added.status).toBe(201);
  return authenticator;
}

/** A step-up may rotate the session cookie: the browser keeps what it was given. */
async function stepUpWithPasskey(browser: Browser, authenticator: SoftAuthenticator): Promise<Browser> {
  const { options, challenge_id } = (await (await post('/api/auth/step-up/passkey/options', {}, { headers: as(browser) })).json()) as {
    options: never;
    challenge_id: string;
  };
  const done = await post('/api/auth/step-up/passkey/complete', { challenge_id, credential: authenticator.get(options) }, { headers: as(browser) });
  expect(done.status).toBe(200);
  const cookie = done.headers.get('set-cookie');
  return cookie ? { ...browser, cookie: cookie.split(';')[0]! } : browser;
}

describe("the person's half", () => {
  it('asks with the confirmation words and an Idempotency-Key, once, deletes nothing, and can cancel; a mail for each', async () => {
    const ada = await person(mailbox, 'ada');
    expect((await read(ada.browser)).deletion_request).toBeNull();
    expect((await ask(ada.browser, 'delete')).status).toBe(400);
    expect((await problemOf(await ask(ada.browser, 'DELETE_MY_ACCOUNT', {}))).code).toBe('idempotency_key_required');
    const asked = await ask(ada.browser);
    expect(asked.status).toBe(202);
    expect(((await asked.json()) as { deletion_request: { status: string } }).deletion_request.status).toBe('pending');
    expect(mailbox.textTo(ada.email)).toContain('Nothing is deleted yet');
    expect((await ask(ada.browser)).status).toBe(409);
    // Nothing is deleted: the account, its password and its session still work.
    expect((await read(ada.browser)).deletion_request!.status).toBe('pending');
    const [account] = await (await getDb()).select().from(users).where(eq(users.id, ada.userId));
    expect(account).toBeDefined();
    expect((await cancel(ada.browser, 'cancel')).status).toBe(400);
    const cancelled = await cancel(ada.browser);
    expect(cancelled.status).toBe(200);
    expect(mailbox.textTo(ada.email)).toContain('was cancelled');
    expect((await read(ada.browser)).deletion_request!.status).toBe('cancelled');
    expect((await cancel(ada.browser)).status).toBe(404);
    // A new request after a cancelled one is allowed.
    expect((await ask(ada.browser)).status).toBe(202);
  });

  it('needs a passkey step-up when the account has a passkey (a password step-up does not do)', async () => {
    const bea = await person(mailbox, 'bea');
    const authenticator = await addPasskey(bea);
    const refused = await ask(bea.browser);
    expect(await problemOf(refused)).toMatchObject({ code: 'step_up_required', step_up: { methods: ['passkey'] } });
    expect((await ask(await stepUpWithPasskey(bea.browser, authenticator))).status).toBe(202);
  });

  it('needs a recent step-up at all', async () => {
    const cy = await person(mailbox, 'cy');
    const later = () => new Date(Date.now() + 11 * 60_000);
    const stale = await post(PATH, { confirmation: 'DELETE_MY_ACCOUNT' }, { headers: { ...as(cy.browser), 'idempotency-key': randomUUID() }, now: later });
    expect((await problemOf(stale)).code).toBe('step_up_required');
  });
});

/** Every row of every table of the database as text (a table added later is walked too). */
async function everyRow(): Promise<string[]> {
  const db = await getDb();
  const rowsOf = (result: unknown) => (Array.isArray(result) ? result : ((result as { rows: unknown[] }).rows ?? [])) as Record<string, string>[];
  const tables = rowsOf(await db.execute(sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`));
  expect(tables.length).toBeGreaterThan(30);
  const rows: string[] = [];
  for (const { table_name: name } of tables) {
    for (const row of rowsOf(await db.execute(sql.raw(`select t::text as row from "${String(name).replace(/"/g, '""')}" t`)))) rows.push(`${name}: ${row.row}`);
  }
  return rows;
}

describe("the operator's completion", () => {
  it('erases the person in every context, keeps the audit trail redacted, and leaves no row with their data', async () => {
    const name = `Erasable ${randomUUID().slice(0, 8)}`;
    const doomed = await person(mailbox, 'doomed');
    const db = await getDb();
    await db.update(users).set({ displayName: name }).where(eq(users.id, doomed.userId));

    // A life in the service: an organization they own, one they are a member of, a directory record
    // elsewhere, an API key, OAuth grants.
    const own = await createOrganization(doomed, 'Doomed Co');
    const colleague = await person(mailbox, 'colleague');
    const theirs = await createOrganization(colleague, 'Colleague Co');
    const membershipThere = await joinAs(theirs, doomed.userId, 'member');
    const delegated = await asBrowser(colleague.browser, 'POST', '/api/organizations/{id}/delegated-admins', {
      params: { id: theirs },
      body: { membership_id: membershipThere, permissions: ['groups.manage'] },
      headers: { 'idempotency-key': randomUUID() },
    });
    expect(delegated.status).toBe(201);
    const elsewhere = await createOrganization(colleague, 'Invites Co');
    await invite(colleague, elsewhere, doomed.email, 'member', mailbox);
    // A directory record too: the directory's organization verified the address's domain, so it links the account.
    const dir = await directory(mailbox, 'dir');
    const claim = await domainClaim({ id: dir.id, mailbox, owner: dir.owner });
    await db
      .update(organizationDomains)
      .set({ domain: doomed.email.split('@')[1]!, status: 'verified', verifiedAt: new Date() })
      .where(eq(organizationDomains.id, claim.id));
    const linked = await dir.scim('POST', '/scim/v2/Users', { body: userBody(doomed.email, { displayName: name }) });
    expect(linked.status, await linked.clone().text()).toBe(201);
    const key = await asBrowser(doomed.browser, 'POST', '/api/developer/api-keys', { body: { name: 'Script', scopes: ['identity.developer.read'] } });
    expect(key.status).toBe(201);
    const apiKey = ((await key.json()) as { api_key: string }).api_key;
    await mintAccessToken(doomed.userId, 'openid identity.profile.read');
    // Last (a passkey makes every later change ask for a passkey step-up).
    const authenticator = await addPasskey(doomed);
    const [passkey] = await db.select().from(passkeys).where(eq(passkeys.userId, doomed.userId));
    const [password] = await db.select().from(passwordCredentials).where(eq(passwordCredentials.userId, doomed.userId));
    // The export taken before completion follows the spec's content rules.
    const { value: exportToken } = await mintAccessToken(doomed.userId, 'identity.privacy.export');
    const exported = await call(operation('GET', '/api/v1/privacy/export'), { headers: { authorization: `Bearer ${exportToken}` } });
    const exportText = await exported.text();
    expect(exportText).toContain(doomed.email);
    expect((JSON.parse(exportText) as { delegations: { organization_id: string; permissions: string[] }[] }).delegations).toMatchObject([
      { organization_id: theirs, permissions: ['groups.manage'] },
    ]);
    for (const secret of [password!.proof, passkey!.publicKey, apiKey, doomed.browser.cookie]) expect(exportText).not.toContain(String(secret));
    expect(exportText).not.toMatch(/"(password_hash|proof|token_hash|secret|code)"/);

    const browser = await stepUpWithPasskey(doomed.browser, authenticator);
    const asked = await ask(browser);
    expect(asked.status).toBe(202);
    const requestId = ((await asked.json()) as { deletion_request: { id: string } }).deletion_request.id;

    // The only owner of an organization: completion is refused, saying which.
    expect((await read(browser)).blocked_by).toEqual([{ organization_id: own, organization_name: 'Doomed Co', reason: 'sole_owner' }]);
    expect((await reviewQueue(0, new Date(Date.now() + 1000))).find((item) => item.id === requestId)?.blocked_by).toHaveLength(1);
    await expect(completeDeletion(requestId, 'Olga Operator', new Date(), 'test')).rejects.toThrow(/only owner of “Doomed Co”/);
    const successor = await person(mailbox, 'successor');
    await joinAs(own, successor.userId, 'owner');

    await completeDeletion(requestId, 'Olga Operator', new Date(), 'test');
    expect(mailbox.textTo(doomed.email)).toContain('your account and its data were deleted');
    const [request] = await db.select().from(deletionRequests).where(eq(deletionRequests.id, requestId));
    expect(request).toMatchObject({ status: 'completed', userId: null, completedBy: 'Olga Operator' });

    const rows = await everyRow();
    const traces = [doomed.email, name, passkey!.credentialId, String(password!.proof), apiKey.slice(0, 16)];
    for (const trace of traces)
      expect(
        rows.filter((row) => row.includes(trace)),
        trace,
      ).toEqual([]);
    // The identifier itself is a random id: it may stay where records name it (e.g. the redacted audit trail), as nobody's.
    const [gone] = await db.select().from(users).where(eq(users.id, doomed.userId));
    expect(gone).toBeUndefined();
    // The session and the API key no longer authenticate.
    expect((await call(operation('GET', PATH), { headers: as(browser) })).status).toBe(401);
    expect((await call(operation('GET', '/api/v1/developer/api-keys'), { headers: { authorization: `Bearer ${apiKey}` } })).status).toBe(401);
    // The organization it left keeps its owner and works.
    const members = await asBrowser(successor.browser, 'GET', '/api/organizations/{id}/members', { params: { id: own } });
    expect(members.status).toBe(200);
    // The provisioning directory can provision again (the person's directory record went with them).
    expect((await provision(dir, `after.${randomUUID().slice(0, 8)}@directory.test`)).id).toBeTruthy();
  });
});
