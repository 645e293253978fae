/**
 * The TypeScript client (clients/typescript) against the built service, as a server would use it: an
 * organization with three members, an application bound to it by the authorization request, and its
 * access token in the client; then an API key for the developer API. Every answer asserted is the
 * service's own. The example of the package's README runs too.
 */
import { expect, test, type APIRequestContext, type PlaywrightWorkerArgs } from './support/test';
import { IdentityClient, ProblemError } from '../clients/typescript/src/index';
import { main as listMembersExample } from '../clients/typescript/examples/list-members';
import { waitForMail, mailCount } from './support/mail-sink';
import { uniqueEmail } from './support/journeys';
import { authorizationCode, codeExchange, signedIn, steppedUp } from './support/outsider';

const REDIRECT = 'http://127.0.0.1:9/callback';

/** `email` signs up in its own context and accepts the owner's invitation to `organizationId`. */
async function joins(
  playwright: PlaywrightWorkerArgs['playwright'],
  owner: APIRequestContext,
  admin: Record<string, string>,
  organizationId: string,
  email: string,
) {
  const origin = admin.origin!;
  const member = await playwright.request.newContext({ baseURL: origin });
  const csrf = await signedIn(member, origin, email);
  const before = mailCount(email);
  expect((await owner.post(`/api/organizations/${organizationId}/invitations`, { headers: admin, data: { email, role: 'member' } })).status()).toBe(201);
  const token = /[?&]token=([A-Za-z0-9_%-]+)/.exec((await waitForMail(email, before)).text)![1]!;
  const accepted = await member.post('/api/organizations/invitations/accept', {
    headers: { origin, 'x-csrf-token': csrf },
    data: { token: decodeURIComponent(token) },
  });
  expect(accepted.status(), await accepted.text()).toBe(200);
  await member.dispose();
}

/** Rejects with what the client threw; fails the test when the call succeeds. */
async function refusal(call: Promise<unknown>): Promise<ProblemError> {
  const outcome = await call.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  if (!('error' in outcome)) throw new Error(`expected a refusal, got ${JSON.stringify(outcome.value)}`);
  expect(outcome.error).toBeInstanceOf(ProblemError);
  return outcome.error as ProblemError;
}

test('a server calls the bearer API through the TypeScript client', async ({ request, baseURL, playwright }) => {
  test.setTimeout(120_000);
  const origin = baseURL!;
  const ownerEmail = uniqueEmail('client-owner');
  const csrf = await signedIn(request, origin, ownerEmail);
  const admin = await steppedUp(request, origin, csrf);
  const created = await request.post('/api/organizations', { headers: admin, data: { name: 'Client Sync Co' } });
  expect(created.status()).toBe(201);
  const organization = (await created.json()) as { id: string; slug: string };
  const other = (await (await request.post('/api/organizations', { headers: admin, data: { name: 'Unbound Co' } })).json()) as { id: string };
  const memberEmails = [uniqueEmail('client-member'), uniqueEmail('client-member')];
  for (const email of memberEmails) await joins(playwright, request, admin, organization.id, email);

  // An application of the portal, authorized for that organization only (organization=<id>).
  const registered = await request.post('/api/developer/applications', {
    headers: admin,
    data: { name: 'Member sync', client_type: 'public', redirect_uris: [REDIRECT], scopes: ['openid', 'identity.organization.read'] },
  });
  expect(registered.status(), await registered.text()).toBe(201);
  const clientId = ((await registered.json()) as { client_id: string }).client_id;
  const scope = 'openid identity.organization.read';
  const authorized = await authorizationCode(request, origin, csrf, { clientId, redirectUri: REDIRECT, scope, extra: { organization: organization.id } });
  const exchanged = await request.post('/oauth/token', { form: codeExchange(clientId, REDIRECT, authorized) });
  expect(exchanged.status()).toBe(200);
  const accessToken = ((await exchanged.json()) as { access_token: string }).access_token;

  // Every request the client sends, as the service received it.
  const requested: URL[] = [];
  const client = new IdentityClient({
    baseUrl: origin,
    credential: accessToken,
    fetch: (input, init) => {
      requested.push(new URL(String(input)));
      return fetch(input, init);
    },
  });

  await test.step('reads the bound organization', async () => {
    const bound = await client.listBoundOrganizations();
    expect(bound.organizations).toEqual([expect.objectContaining({ id: organization.id, name: 'Client Sync Co', role: 'owner' })]);
    expect(bound).toMatchObject({ has_more: false, next_cursor: null, authentication: 'oauth' });
    const read = await client.getBoundOrganization({ id: organization.id });
    expect(read).toMatchObject({ id: organization.id, name: 'Client Sync Co', membership: { role: 'owner' } });
    expect(read.membership.permissions).toContain('members.manage');
  });

  await test.step('lists the members one per page, by hand and with paginate', async () => {
    const first = await client.listOrganizationMembers({ id: organization.id, limit: 1 });
    expect(first.members).toHaveLength(1);
    expect(first.has_more).toBe(true);
    expect(first.next_cursor).toEqual(expect.any(String));
    const second = await client.listOrganizationMembers({ id: organization.id, limit: 1, cursor: first.next_cursor });
    expect(second.members).toHaveLength(1);
    expect(second.members[0]!.id).not.toBe(first.members[0]!.id);

    requested.length = 0;
    const members = [];
    for await (const member of client.paginate('listOrganizationMembers', { id: organization.id, limit: 1 })) members.push(member);
    expect(members.map((m) => m.email).sort()).toEqual([ownerEmail, ...memberEmails].sort());
    expect(new Set(members.map((m) => m.id)).size).toBe(3);
    expect(members.map((m) => m.status)).toEqual(['active', 'active', 'active']);
    // Three pages of one, each asked for with the cursor of the page before.
    expect(requested.map((url) => url.searchParams.get('limit'))).toEqual(['1', '1', '1']);
    expect(requested[0]!.searchParams.get('cursor')).toBeNull();
    expect(requested[1]!.searchParams.get('cursor')).toBe(first.next_cursor);
    expect(requested[2]!.searchParams.get('cursor')).toEqual(expect.any(String));

    const accepted = await client.listOrganizationInvitations({ id: organization.id, status: 'accepted' });
    expect(accepted.invitations.map((i) => i.email).sort()).toEqual([...memberEmails].sort());
  });

  await test.step('refusals arrive as ProblemErrors with the documented codes', async () => {
    const foreign = await refusal(client.getBoundOrganization({ id: other.id }));
    expect(foreign).toMatchObject({ status: 403, code: 'forbidden', retryAfter: null });
    expect(foreign.requestId).toEqual(expect.any(String));
    const badCursor = await refusal(client.listOrganizationMembers({ id: organization.id, cursor: 'not-a-cursor' }));
    expect(badCursor).toMatchObject({ status: 400, code: 'invalid_pagination' });
    const unknownToken = new IdentityClient({ baseUrl: origin, credential: 'not-a-token' });
    expect(await refusal(unknownToken.listBoundOrganizations())).toMatchObject({ status: 401, code: 'unauthenticated' });
  });

  await test.step("the README's example lists the members", async () => {
    const lines: string[] = [];
    const members = await listMembersExample({
      baseUrl: origin,
      credential: accessToken,
      organizationId: organization.id,
      pageSize: 1,
      print: (line) => lines.push(line),
    });
    expect(members).toHaveLength(3);
    expect(lines[0]).toBe(`Client Sync Co (${organization.slug}), read as owner`);
    expect(lines.at(-1)).toBe('3 member(s)');
    for (const email of [ownerEmail, ...memberEmails]) expect(lines.some((line) => line.includes(`<${email}>`))).toBe(true);
  });

  await test.step('an API key reads the developer API; the organization reads refuse it (keys hold developer scopes only)', async () => {
    const made = await request.post('/api/developer/api-keys', { headers: admin, data: { name: 'client package', scopes: ['identity.developer.read'] } });
    expect(made.status(), await made.text()).toBe(201);
    const keyClient = new IdentityClient({ baseUrl: origin, credential: ((await made.json()) as { api_key: string }).api_key });
    const keys = await keyClient.listApiKeys();
    expect(keys).toMatchObject({ authentication: 'api_key', scopes: ['identity.developer.read'], has_more: false });
    expect(keys.api_keys.map((key) => key.name)).toEqual(['client package']);
    const applications = await keyClient.listApplications();
    expect(applications.applications.map((app) => app.client_id)).toEqual([clientId]);
    expect(await refusal(keyClient.listBoundOrganizations())).toMatchObject({ status: 403, code: 'insufficient_scope' });
  });
});
