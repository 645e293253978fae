/**
 * The second outside audit, kept as a test: plain HTTP against the built server, each check the way
 * the attack was once made and what it answered then. The rules themselves are tested beside the code
 * that enforces them; this file proves they hold on the running service.
 */
import { expect, test } from './support/test';
import { mailCount, waitForCode, waitForMail } from './support/mail-sink';
import { PASSWORD, uniqueEmail } from './support/journeys';
import { authorizationCode, codeExchange, problem, registerClient, signedIn, steppedUp } from './support/outsider';

const REDIRECT = 'http://127.0.0.1:9/callback';

/** `n` copies of one request sent at the same moment; the statuses they got. */
async function atOnce(n: number, send: () => Promise<{ status(): number }>): Promise<number[]> {
  return (await Promise.all(Array.from({ length: n }, send))).map((response) => response.status());
}

test.describe('the second outside audit', () => {
  test('a code and a refresh token each redeem once under concurrency; a revoked grant leaves no live token', async ({ request, baseURL }) => {
    const origin = baseURL!;
    const csrf = await signedIn(request, origin, uniqueEmail('audit-race'));
    const clientId = await registerClient(request, REDIRECT);
    const scope = 'openid identity.profile.read offline_access';

    // Once: 12 concurrent redemptions of one code gave 7 x 200, and those tokens outlived the reuse.
    const raced = await authorizationCode(request, origin, csrf, { clientId, redirectUri: REDIRECT, scope });
    const redemptions = await Promise.all(Array.from({ length: 12 }, () => request.post('/oauth/token', { form: codeExchange(clientId, REDIRECT, raced) })));
    const won = redemptions.filter((r) => r.status() === 200);
    expect(won).toHaveLength(1);
    for (const lost of redemptions.filter((r) => r.status() !== 200)) expect((await problem(lost, 400)).error).toBe('invalid_grant');
    const { access_token } = await won[0]!.json();
    // The losers count as a reuse of the code, so the grant went, and with it the winner's token.
    expect((await request.get('/api/v1/me', { headers: { authorization: `Bearer ${access_token}` } })).status()).toBe(401);
    expect((await request.get('/oauth/userinfo', { headers: { authorization: `Bearer ${access_token}` } })).status()).toBe(401);

    // Once: six concurrent refreshes of one refresh token gave six independent children.
    const fresh = await authorizationCode(request, origin, csrf, { clientId, redirectUri: REDIRECT, scope });
    const tokens = await (await request.post('/oauth/token', { form: codeExchange(clientId, REDIRECT, fresh) })).json();
    const refreshes = await atOnce(6, () =>
      request.post('/oauth/token', { form: { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: clientId } }),
    );
    expect(refreshes.filter((status) => status === 200)).toHaveLength(1);
    expect(refreshes.filter((status) => status === 400)).toHaveLength(5);
  });

  test('approval gates hold against suspension and against emptying the policy', async ({ request, baseURL, playwright }) => {
    const origin = baseURL!;
    const ownerEmail = uniqueEmail('audit-owner');
    const admin = await steppedUp(request, origin, await signedIn(request, origin, ownerEmail));
    const organization = await (await request.post('/api/organizations', { headers: admin, data: { name: 'Audit approvals' } })).json();
    const members = `/api/organizations/${organization.id}`;

    const memberEmail = uniqueEmail('audit-member');
    const member = await playwright.request.newContext({ baseURL });
    const memberCsrf = await signedIn(member, origin, memberEmail);
    const before = mailCount(memberEmail);
    expect((await request.post(`${members}/invitations`, { headers: admin, data: { email: memberEmail, role: 'member' } })).status()).toBe(201);
    const token = /[?&]token=([A-Za-z0-9_%-]+)/.exec((await waitForMail(memberEmail, before)).text)![1]!;
    const accepted = await member.post('/api/organizations/invitations/accept', {
      headers: { origin, 'x-csrf-token': memberCsrf },
      data: { token: decodeURIComponent(token) },
    });
    expect(accepted.status()).toBe(200);
    const { membership_id } = await accepted.json();
    await member.dispose();

    const gate = { policy_key: 'approvals.required_for', value: ['members.remove'] };
    expect((await request.post(`${members}/policies`, { headers: admin, data: gate })).status()).toBe(200);
    expect((await problem(await request.delete(`${members}/members/${membership_id}`, { headers: admin }), 403)).code).toBe('approval_required');
    // Once: suspending the member (the same effect) went through without approval.
    expect((await problem(await request.patch(`${members}/members/${membership_id}`, { headers: admin, data: { status: 'suspended' } }), 403)).code).toBe(
      'approval_required',
    );
    // Once: emptying the list first, then removing, went through without approval.
    const emptied = { policy_key: 'approvals.required_for', value: [] };
    expect((await problem(await request.patch(`${members}/policies`, { headers: admin, data: emptied }), 403)).code).toBe('approval_required');
    expect((await problem(await request.post(`${members}/policies`, { headers: admin, data: emptied }), 403)).code).toBe('approval_required');
    const deleted = await request.delete(`${members}/policies/approvals.required_for`, { headers: { ...admin, 'idempotency-key': `audit-${Date.now()}` } });
    expect((await problem(deleted, 403)).code).toBe('approval_required');
    // Tightening stays free.
    expect(
      (await request.post(`${members}/policies`, { headers: admin, data: { ...gate, value: ['members.remove', 'delegated_admins.create'] } })).status(),
    ).toBe(200);
  });

  test('an agent mints only short-lived, narrow API keys that end with its consent', async ({ request, baseURL }) => {
    const origin = baseURL!;
    const csrf = await signedIn(request, origin, uniqueEmail('audit-agent'));
    const clientId = await registerClient(request, REDIRECT);
    const resource = `${origin}/mcp`;
    const authorized = await authorizationCode(request, origin, csrf, {
      clientId,
      redirectUri: REDIRECT,
      scope: 'identity.api_keys.create',
      extra: { resource },
    });
    const exchanged = await request.post('/oauth/token', { form: { ...codeExchange(clientId, REDIRECT, authorized), resource } });
    expect(exchanged.status()).toBe(200);
    const agent = { authorization: `Bearer ${(await exchanged.json()).access_token}`, accept: 'application/json, text/event-stream' };
    const createKey = async (args: Record<string, unknown>) => {
      const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'create_api_key', arguments: { name: 'agent key', ...args } } };
      const response = await request.post('/mcp', { headers: agent, data: call });
      expect(response.status()).toBe(200);
      return (await response.json()).result as { isError?: boolean; structuredContent?: { api_key: string; expires_at: string; scopes: string[] } };
    };

    // Once: every developer scope, no expiry, and a key that outlived the consent.
    expect((await createKey({ scopes: ['identity.applications.manage'] })).isError).toBe(true);
    expect((await createKey({ scopes: ['identity.developer.read'], expires_at: new Date(Date.now() + 365 * 86_400_000).toISOString() })).isError).toBe(true);
    const minted = await createKey({ scopes: ['identity.developer.read'] });
    expect(minted.isError).toBeFalsy();
    const key = minted.structuredContent!;
    expect(Date.parse(key.expires_at) - Date.now()).toBeLessThanOrEqual(30 * 86_400_000);
    const keyHeaders = { authorization: `Bearer ${key.api_key}` };
    const listed = await request.get('/api/v1/developer/api-keys', { headers: keyHeaders });
    expect(listed.status()).toBe(200);
    expect((await listed.json()).api_keys[0].created_by).toMatchObject({ kind: 'application', client_id: clientId });

    const { consents } = await (await request.get('/api/auth/consents')).json();
    const consent = consents.find((c: { client_id: string }) => c.client_id === clientId);
    expect(
      (await request.post('/api/auth/consents/revoke', { headers: { origin, 'x-csrf-token': csrf }, data: { grant_id: consent.grant_id } })).status(),
    ).toBe(200);
    expect((await request.get('/api/v1/developer/api-keys', { headers: keyHeaders })).status()).toBe(401);
  });

  test("a kept e-mail code dies with the owner's password change; address buckets send no RateLimit header", async ({ request, baseURL, playwright }) => {
    const origin = baseURL!;
    const email = uniqueEmail('audit-code');
    const owner = await steppedUp(request, origin, await signedIn(request, origin, email));

    // The intruder held the mailbox for a moment and kept a sign-in code.
    const intruder = await playwright.request.newContext({ baseURL });
    const before = mailCount(email);
    const started = await intruder.post('/api/auth/signin/email-otp/start', { headers: { origin }, data: { email } });
    expect(started.status()).toBe(202);
    // Once: `"mail_per_address";r=247` told anyone how much an address had been used.
    expect(JSON.stringify(started.headers())).not.toContain('per_address');
    const { challenge_id } = await started.json();
    const code = await waitForCode(email, before);

    const changed = await request.post('/api/auth/password/change', {
      headers: owner,
      data: { current_password: PASSWORD, new_password: `${PASSWORD} changed` },
    });
    expect(changed.status()).toBe(200);
    // Once: the kept code still signed in (201) after the owner changed the password.
    const completed = await intruder.post('/api/auth/signin/email-otp/complete', { headers: { origin }, data: { challenge_id, code } });
    expect((await problem(completed, 400)).code).toBe('invalid_code');
    await intruder.dispose();
  });
  test('names, URLs, characters and schemes at the edge', async ({ request, baseURL }) => {
    const origin = baseURL!;
    const csrf = await signedIn(request, origin, uniqueEmail('audit-edge'));
    const session = await steppedUp(request, origin, csrf);

    // Once: a display name with a line break or a text-direction override reached member lists and the `name` claim.
    for (const display_name of ['Ada\r\nBcc: x', '\u202egnp.exe']) {
      expect((await problem(await request.patch('/api/auth/profile', { headers: session, data: { display_name } }), 400)).code).toBe('invalid_request');
    }
    // Once: a lone surrogate in a JSON string answered 500.
    const application = { name: '\ud800person@example.com', client_type: 'public', redirect_uris: ['http://127.0.0.1:5000/cb'], scopes: ['openid'] };
    expect((await problem(await request.post('/api/developer/applications', { headers: session, data: application }), 400)).code).toBe('invalid_request');
    // Once: webhook URLs were stored and shown as sent, line breaks and all.
    const webhook = (url: string) => request.post('/api/developer/webhooks', { headers: session, data: { url, events: ['identity.user.updated'] } });
    for (const url of ['https://localhost/a\r\nb', ' https://localhost/']) expect((await webhook(url)).status()).toBe(400);
    const created = await webhook('HTTPS://LOCALHOST:443/a/../hook');
    expect(created.status()).toBe(201);
    expect((await created.json()).url).toBe('https://localhost/hook');

    const registration = { client_name: 'Probe', application_type: 'native', token_endpoint_auth_method: 'none', redirect_uris: [REDIRECT] };
    // Once: the provider fetched a sector identifier URI outside the outbound guard.
    const sector = await request.post('/oauth/register', { data: { ...registration, sector_identifier_uri: 'https://127.0.0.1:9/s.json' } });
    expect((await problem(sector, 400)).error).toBe('invalid_client_metadata');
    // Once: a redirect URI with user info (evil.example@127.0.0.1) was accepted.
    const userinfo = await request.post('/oauth/register', { data: { ...registration, redirect_uris: ['http://evil.example@127.0.0.1/cb'] } });
    expect((await problem(userinfo, 400)).error).toBe('invalid_redirect_uri');

    // Once: `Authorization: bearer ...` was refused; schemes are case-insensitive (RFC 9110).
    const clientId = await registerClient(request, REDIRECT);
    const authorized = await authorizationCode(request, origin, csrf, { clientId, redirectUri: REDIRECT, scope: 'openid identity.profile.read' });
    const { access_token } = await (await request.post('/oauth/token', { form: codeExchange(clientId, REDIRECT, authorized) })).json();
    expect((await request.get('/api/v1/me', { headers: { authorization: `bearer ${access_token}` } })).status()).toBe(200);
  });
});
