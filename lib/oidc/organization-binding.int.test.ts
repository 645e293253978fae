/**
 * Organization-bound authorizations, end to end with openid-client as the relying party: the
 * `organization` parameter or the consent page's chooser binds the grant, every access token (code
 * exchange and refresh) carries the binding, the bearer organization reads honour it, and
 * endOrganizationGrants ends the grant with all its tokens.
 */
import * as client from 'openid-client';
import { and, eq } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getDb, inTransaction } from '@/lib/db';
import { memberships, oidcGrantOrganizations, organizationPolicies } from '@/lib/db/schema';
import { browserFrom, post, useMailbox } from '@/tests/helpers/accounts';
import { call, operation, ORIGIN, problemOf } from '@/tests/helpers/http';
import {
  authorizationOutcome,
  authorizationParams,
  authorize,
  consentRequest,
  CookieJar,
  decideAs,
  interactionOf,
  mintAccessToken,
  pkce,
  REDIRECT,
  registerPortalClient,
  relyingParty,
  resume,
  throughPipeline,
} from '@/tests/helpers/oauth';
import { asBrowser, createOrganization, joinAs, person, type Person } from '@/tests/helpers/organizations';
import { DrizzleAdapter } from './adapter';
import { endOrganizationGrants } from './index';
import { getProvider } from './provider';

const mailbox = useMailbox();
const ORG_READ = 'openid offline_access identity.organization.read';

/** openid-client configured for a client registered on the trusted path (organization scopes are portal-only). */
async function portalRelyingParty(): Promise<client.Configuration> {
  const clientId = await registerPortalClient();
  return client.discovery(new URL(ORIGIN), clientId, undefined, client.None(), {
    execute: [client.allowInsecureRequests],
    [client.customFetch]: throughPipeline(),
  });
}

/** The browser leg up to the consent page: the interaction id and the state to expect back. */
async function startAuthorization(rp: client.Configuration, jar: CookieJar, scope: string, extra: Record<string, string> = {}) {
  const { params, verifier, state } = await consentRequest(rp, scope, extra);
  return { started: await authorize(jar, params), verifier, state };
}

const decide = (who: Person, interactionId: string, body: Record<string, unknown>) =>
  asBrowser(who.browser, 'POST', '/oauth/authorize', { body: { interaction_id: interactionId, decision: 'approve', ...body } });

const choiceFor = (who: Person, interactionId: string) =>
  asBrowser(who.browser, 'GET', '/oauth/authorize/organizations', { query: new URLSearchParams({ interaction_id: interactionId }).toString() });

/** Authorize, approve (with an organization choice when given), resume and exchange the code. */
async function authorizeBound(
  rp: client.Configuration,
  who: Person,
  options: { organization?: string; choose?: string; scope?: string; jar?: CookieJar } = {},
) {
  const jar = options.jar ?? new CookieJar(who.browser);
  const { started, verifier, state } = await startAuthorization(
    rp,
    jar,
    options.scope ?? ORG_READ,
    options.organization ? { organization: options.organization } : {},
  );
  const decided = await decide(who, interactionOf(started), options.choose ? { organization_id: options.choose } : {});
  if (decided.status !== 200) throw new Error(`decision failed: ${decided.status} ${await decided.text()}`);
  const callback = await resume(jar, ((await decided.json()) as { redirect_to: string }).redirect_to);
  return client.authorizationCodeGrant(rp, callback, { pkceCodeVerifier: verifier, expectedState: state });
}

const bearer = (token: string, path: string, params: Record<string, string> = {}) =>
  call(operation('GET', path), { params, headers: { authorization: `Bearer ${token}` } });

const boundTo = async (accessToken: string) =>
  ((await (await getProvider()).AccessToken.find(accessToken))?.extra as { organization_id?: string } | undefined)?.organization_id;

async function twoOrganizations() {
  const ada = await person(mailbox, 'ada');
  const acme = await createOrganization(ada, 'Acme');
  const globex = await createOrganization(ada, 'Globex');
  return { ada, acme, globex };
}

describe('an authorization request naming an organization', () => {
  it('binds every token to it: the bearer reads see that organization only', async () => {
    const { ada, acme, globex } = await twoOrganizations();
    const rp = await portalRelyingParty();
    const tokens = await authorizeBound(rp, ada, { organization: acme });
    expect(await boundTo(tokens.access_token)).toBe(acme);

    const list = await bearer(tokens.access_token, '/api/v1/organizations');
    expect(list.status).toBe(200);
    expect(await list.json()).toEqual({
      organizations: [{ id: acme, name: 'Acme', slug: 'acme', role: 'owner', role_name: 'owner', created_at: expect.any(String) }],
      has_more: false,
      next_cursor: null,
      authentication: 'oauth',
      scopes: ['openid', 'offline_access', 'identity.organization.read'],
    });
    const read = await bearer(tokens.access_token, '/api/v1/organizations/{id}', { id: acme });
    expect(read.status).toBe(200);
    expect(await read.json()).toMatchObject({ id: acme, name: 'Acme', membership: { role: 'owner' } });
    const domains = await bearer(tokens.access_token, '/api/v1/organizations/{id}/domains', { id: acme });
    expect(await domains.json()).toEqual({
      domains: [],
      has_more: false,
      next_cursor: null,
      authentication: 'oauth',
      scopes: ['openid', 'offline_access', 'identity.organization.read'],
    });

    for (const path of ['/api/v1/organizations/{id}', '/api/v1/organizations/{id}/domains']) {
      const other = await bearer(tokens.access_token, path, { id: globex });
      expect(other.status, path).toBe(403);
      expect((await problemOf(other)).code).toBe('forbidden');
    }
  });

  it('keeps the binding across a refresh', async () => {
    const { ada, globex } = await twoOrganizations();
    const rp = await portalRelyingParty();
    const tokens = await authorizeBound(rp, ada, { organization: globex });
    const refreshed = await client.refreshTokenGrant(rp, tokens.refresh_token!);
    expect(refreshed.access_token).not.toBe(tokens.access_token);
    expect(await boundTo(refreshed.access_token)).toBe(globex);
    const list = await (await bearer(refreshed.access_token, '/api/v1/organizations')).json();
    expect(list.organizations.map((o: { id: string }) => o.id)).toEqual([globex]);
  });

  it("refuses a non-member's approval: the page offers only denying, and the client gets access_denied", async () => {
    const { acme } = await twoOrganizations();
    const eve = await person(mailbox, 'eve');
    const rp = await portalRelyingParty();
    const jar = new CookieJar(eve.browser);
    const { started } = await startAuthorization(rp, jar, ORG_READ, { organization: acme });
    const interactionId = interactionOf(started);
    expect(await (await choiceFor(eve, interactionId)).json()).toEqual({ required: true, requested: acme, organizations: [], refusal: 'not_a_member' });

    const approval = await decide(eve, interactionId, {});
    expect(approval.status).toBe(403);
    expect(await problemOf(approval)).toMatchObject({ code: 'forbidden', detail: expect.stringMatching(/not an active member/) });
    // Choosing another organization does not get around the request's own.
    const sneaky = await decide(eve, interactionId, { organization_id: await createOrganization(eve, 'Eve Co') });
    expect(sneaky.status).toBe(400);

    const denied = await decideAs(eve.browser, interactionId, 'deny');
    const callback = await resume(jar, ((await denied.json()) as { redirect_to: string }).redirect_to);
    expect(callback.searchParams.get('error')).toBe('access_denied');
  });

  it('refuses a suspended member like a non-member', async () => {
    const { ada, acme } = await twoOrganizations();
    const bob = await person(mailbox, 'bob');
    await joinAs(acme, bob.userId, 'member');
    await (
      await getDb()
    )
      .update(memberships)
      .set({ status: 'suspended' })
      .where(and(eq(memberships.organizationId, acme), eq(memberships.userId, bob.userId)));
    const rp = await portalRelyingParty();
    const { started } = await startAuthorization(rp, new CookieJar(bob.browser), ORG_READ, { organization: acme });
    expect((await decide(bob, interactionOf(started), {})).status).toBe(403);
    expect(ada.userId).not.toBe(bob.userId);
  });

  it('refuses the parameter without an organization scope, and a malformed id, at the authorization endpoint', async () => {
    const rp = await portalRelyingParty();
    for (const [scope, organization] of [
      ['openid identity.profile.read', '00000000-0000-4000-8000-000000000000'],
      [ORG_READ, 'acme'],
    ]) {
      const { started } = await startAuthorization(rp, new CookieJar(), scope!, { organization: organization! });
      const outcome = await authorizationOutcome(started);
      expect(outcome.answer?.get('error'), `${scope} ${organization}`).toBe('invalid_request');
      expect(outcome.answer?.get('error_description')).toMatch(/organization/);
    }
    const context = await call(operation('GET', '/oauth/authorize/context'), {
      query: new URLSearchParams({
        client_id: rp.clientMetadata().client_id,
        redirect_uri: REDIRECT,
        response_type: 'code',
        code_challenge: 'a'.repeat(43),
        code_challenge_method: 'S256',
        scope: 'openid',
        organization: '00000000-0000-4000-8000-000000000000',
      }).toString(),
    });
    expect(context.status).toBe(400);
    expect((await problemOf(context)).errors).toEqual([{ path: 'query.organization', message: expect.stringMatching(/only with the scope/) }]);
  });
});

describe('the consent chooser', () => {
  it("offers the person's active organizations and binds the one chosen", async () => {
    const { ada, acme, globex } = await twoOrganizations();
    const initech = await createOrganization(await person(mailbox, 'ivy'), 'Initech');
    const rp = await portalRelyingParty();
    const jar = new CookieJar(ada.browser);
    const { started, verifier, state } = await startAuthorization(rp, jar, ORG_READ);
    const interactionId = interactionOf(started);
    const choice = await (await choiceFor(ada, interactionId)).json();
    expect(choice).toEqual({
      required: true,
      requested: null,
      organizations: [
        { id: acme, name: 'Acme' },
        { id: globex, name: 'Globex' },
      ],
      refusal: null,
    });

    // Approving needs a choice, and only one of the person's own organizations.
    expect((await decide(ada, interactionId, {})).status).toBe(400);
    expect((await decide(ada, interactionId, { organization_id: initech })).status).toBe(403);
    const decided = await decide(ada, interactionId, { organization_id: globex });
    expect(decided.status).toBe(200);
    const callback = await resume(jar, ((await decided.json()) as { redirect_to: string }).redirect_to);
    const tokens = await client.authorizationCodeGrant(rp, callback, { pkceCodeVerifier: verifier, expectedState: state });
    expect(await boundTo(tokens.access_token)).toBe(globex);
    const list = await (await bearer(tokens.access_token, '/api/v1/organizations')).json();
    expect(list.organizations.map((o: { id: string }) => o.id)).toEqual([globex]);
    expect((await bearer(tokens.access_token, '/api/v1/organizations/{id}', { id: acme })).status).toBe(403);
  });

  it('explains that a person without organizations can only deny', async () => {
    const loner = await person(mailbox, 'loner');
    const rp = await portalRelyingParty();
    const { started } = await startAuthorization(rp, new CookieJar(loner.browser), 'identity.organization.members.read');
    expect(await (await choiceFor(loner, interactionOf(started))).json()).toEqual({
      required: true,
      requested: null,
      organizations: [],
      refusal: 'no_organizations',
    });
  });

  it('binds nothing for a request without organization scopes, and refuses a choice there', async () => {
    const { ada, acme } = await twoOrganizations();
    const rp = await relyingParty('Plain CLI');
    const jar = new CookieJar(ada.browser);
    const { started } = await startAuthorization(rp, jar, 'openid profile');
    const interactionId = interactionOf(started);
    expect(await (await choiceFor(ada, interactionId)).json()).toEqual({ required: false, requested: null, organizations: [], refusal: null });
    expect((await decide(ada, interactionId, { organization_id: acme })).status).toBe(400);
  });

  it('does not extend a grant bound to another organization', async () => {
    const { ada, acme, globex } = await twoOrganizations();
    const rp = await portalRelyingParty();
    // One browser: the provider's session remembers the first grant and offers it to the second consent.
    const jar = new CookieJar(ada.browser);
    const first = await authorizeBound(rp, ada, { organization: acme, jar });
    const second = await authorizeBound(rp, ada, { choose: globex, jar });
    expect(await boundTo(second.access_token)).toBe(globex);
    // The first authorization keeps its own binding, at refresh too.
    expect(await boundTo((await client.refreshTokenGrant(rp, first.refresh_token!)).access_token)).toBe(acme);
  });
});

describe('a client that is not asked to consent again', () => {
  it('still goes through the consent page for an organization-bound request', async () => {
    const { ada, acme, globex } = await twoOrganizations();
    // A web client with trusted redirect URIs: oidc-provider would reuse its grant without asking.
    const redirectUri = 'https://rp.example.test/callback';
    const clientId = `trusted-web-${acme}`;
    await new DrizzleAdapter('Client').upsert(clientId, {
      client_id: clientId,
      application_type: 'web',
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code'],
      response_types: ['code'],
      redirect_uris: [redirectUri],
      redirect_uris_trusted: true,
    });
    const jar = new CookieJar(ada.browser);
    const params = (extra: Record<string, string>) => ({
      ...authorizationParams(clientId, pkce().challenge, { scope: 'openid identity.profile.read', ...extra }),
      redirect_uri: redirectUri,
    });
    const first = await authorize(jar, params({ prompt: 'consent', scope: 'openid identity.organization.read', organization: acme }));
    const decided = await decide(ada, interactionOf(first), {});
    expect((await resume(jar, ((await decided.json()) as { redirect_to: string }).redirect_to)).searchParams.get('code')).toBeTruthy();
    // Without organization scopes the same client is answered at once (its grant covers the request)...
    const plain = await authorize(jar, params({ scope: 'openid' }));
    expect(plain.headers.get('location'), String(plain.status)).toMatch(/^https:\/\/rp\.example\.test\/callback\?code=/);
    // ...but a request for another organization is decided by the person.
    const second = await authorize(jar, params({ scope: 'openid identity.organization.read', organization: globex }));
    expect(second.headers.get('location')).toMatch(/^\/consent\//);
  });
});

describe('bearer organization reads', () => {
  it('refuse a token without a binding with 403', async () => {
    const { ada } = await twoOrganizations();
    const { value } = await mintAccessToken(ada.userId, 'identity.organization.read');
    const response = await bearer(value, '/api/v1/organizations');
    expect(response.status).toBe(403);
    expect(await problemOf(response)).toMatchObject({ code: 'forbidden', detail: expect.stringMatching(/not bound/) });
  });

  it('refuse a bound token without identity.organization.read with 403', async () => {
    const { ada, acme } = await twoOrganizations();
    const { value } = await mintAccessToken(ada.userId, 'identity.profile.read', { organizationId: acme });
    expect((await bearer(value, '/api/v1/organizations/{id}', { id: acme })).status).toBe(403);
    const bound = await mintAccessToken(ada.userId, 'identity.organization.read', { organizationId: acme });
    expect((await bearer(bound.value, '/api/v1/organizations/{id}', { id: acme })).status).toBe(200);
  });
});

describe("the organization's session policies", () => {
  it('apply to the session approving an authorization bound to the organization', async () => {
    const { ada, acme, globex } = await twoOrganizations();
    // Ada's password session may not set a passkey-only policy itself (it would shut her out), so the
    // policy is stored as test data, as a passkey-signed-in owner would have set it.
    const now = new Date();
    await (
      await getDb()
    )
      .insert(organizationPolicies)
      .values({ organizationId: acme, policyKey: 'signin.allowed_methods', value: ['passkey'], createdAt: now, updatedAt: now });
    const rp = await portalRelyingParty();
    const jar = new CookieJar(ada.browser);
    const { started } = await startAuthorization(rp, jar, ORG_READ, { organization: acme });
    // Ada signed in with her password; Acme accepts passkey sign-ins only.
    const refused = await decide(ada, interactionOf(started), {});
    expect(refused.status).toBe(401);
    expect(await problemOf(refused)).toMatchObject({
      code: 'reauthentication_required',
      reauthentication: { reason: 'signin_method', allowed_methods: ['passkey'] },
    });
    // Globex sets no such policy: the same session may bind an authorization to it.
    const tokens = await authorizeBound(rp, ada, { organization: globex });
    expect(await boundTo(tokens.access_token)).toBe(globex);
  });
});

describe("the organization's sign-in policies govern the tokens bound to it", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /** Acme (owned by Ada) and Bob, a member, who authorized an application bound to Acme from his password sign-in. */
  async function memberWithBoundTokens() {
    const { ada, acme } = await twoOrganizations();
    const bob = await person(mailbox, 'bob');
    await joinAs(acme, bob.userId, 'member');
    const rp = await portalRelyingParty();
    const tokens = await authorizeBound(rp, bob, { organization: acme });
    return { ada, acme, bob, rp, tokens };
  }

  const members = (token: string, id: string, now?: () => Date) =>
    call(operation('GET', '/api/v1/organizations/{id}/members'), { params: { id }, now, headers: { authorization: `Bearer ${token}` } });

  async function expectReauthentication(response: Response, reauthentication: Record<string, unknown>) {
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
    expect(await problemOf(response)).toMatchObject({ code: 'reauthentication_required', reauthentication });
  }

  /** From now on Date reads `seconds` later than the real clock (the provider reads it at refresh). */
  function travel(seconds: number) {
    vi.useRealTimers();
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + seconds * 1000 });
  }

  it('signin.allowed_methods: a token approved from a password sign-in is refused in the organization and cannot be refreshed', async () => {
    const { acme, bob, rp, tokens } = await memberWithBoundTokens();
    expect((await members(tokens.access_token, acme)).status).toBe(200);
    // Stored as test data: a password session may not set a policy that shuts its author out.
    const now = new Date();
    await (
      await getDb()
    )
      .insert(organizationPolicies)
      .values({ organizationId: acme, policyKey: 'signin.allowed_methods', value: ['email_code'], createdAt: now, updatedAt: now });
    // Signing out changes nothing for the token: the sign-in it was approved from is what counts.
    const signedOut = await asBrowser(bob.browser, 'POST', '/api/auth/sessions/revoke', { body: { session_id: bob.browser.sessionId } });
    expect(signedOut.status).toBe(200);

    for (const path of ['/api/v1/organizations/{id}/members', '/api/v1/organizations/{id}', '/api/v1/organizations']) {
      const refused = await bearer(tokens.access_token, path, { id: acme });
      await expectReauthentication(refused, { reason: 'signin_method', allowed_methods: ['email_code'] });
    }
    await expect(client.refreshTokenGrant(rp, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });

    // Approved again from an e-mail code sign-in, the application's new tokens pass.
    const { challenge_id } = await (await post('/api/auth/signin/email-otp/start', { email: bob.email })).json();
    const byCode = await browserFrom(await post('/api/auth/signin/email-otp/complete', { challenge_id, code: mailbox.codeFor(bob.email) }));
    const fresh = await authorizeBound(rp, { ...bob, browser: byCode }, { organization: acme });
    expect((await members(fresh.access_token, acme)).status).toBe(200);
    expect((await client.refreshTokenGrant(rp, fresh.refresh_token!)).access_token).toEqual(expect.any(String));
  });

  it('session.max_age_seconds: a token is refused once the sign-in that approved it is older, and its refresh fails', async () => {
    const { ada, acme, rp, tokens } = await memberWithBoundTokens();
    const policy = await asBrowser(ada.browser, 'POST', '/api/organizations/{id}/policies', {
      params: { id: acme },
      body: { policy_key: 'session.max_age_seconds', value: 300 },
    });
    expect(policy.status).toBe(200);
    const later = (seconds: number) => () => new Date(Date.now() + seconds * 1000);
    expect((await members(tokens.access_token, acme, later(200))).status).toBe(200);
    await expectReauthentication(await members(tokens.access_token, acme, later(400)), { reason: 'session_max_age', max_age_seconds: 300 });

    travel(200);
    const refreshed = await client.refreshTokenGrant(rp, tokens.refresh_token!);
    travel(400);
    await expect(client.refreshTokenGrant(rp, refreshed.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('refuse a bound token whose approving sign-in is unknown (bound before it was recorded) only where such a policy is set', async () => {
    const { ada, acme, tokens } = await memberWithBoundTokens();
    const grantId = (await (await getProvider()).AccessToken.find(tokens.access_token))!.grantId!;
    await (await getDb()).update(oidcGrantOrganizations).set({ signInMethods: null, authenticatedAt: null }).where(eq(oidcGrantOrganizations.grantId, grantId));
    expect((await members(tokens.access_token, acme)).status).toBe(200);
    expect(
      (
        await asBrowser(ada.browser, 'POST', '/api/organizations/{id}/policies', {
          params: { id: acme },
          body: { policy_key: 'session.max_age_seconds', value: 300 },
        })
      ).status,
    ).toBe(200);
    await expectReauthentication(await members(tokens.access_token, acme), { reason: 'session_max_age', max_age_seconds: 300 });
  });
});

describe('endOrganizationGrants', () => {
  it("revokes the member's grants bound to that organization with their access and refresh tokens, and nothing else", async () => {
    const { ada, acme, globex } = await twoOrganizations();
    const rp = await portalRelyingParty();
    const acmeTokens = await authorizeBound(rp, ada, { organization: acme });
    const globexTokens = await authorizeBound(await portalRelyingParty(), ada, { organization: globex });
    expect((await bearer(acmeTokens.access_token, '/api/v1/organizations')).status).toBe(200);

    const revoked = await inTransaction((tx) => endOrganizationGrants(tx, { userId: ada.userId, organizationId: acme }, new Date()));
    expect(revoked).toBe(1);
    expect((await bearer(acmeTokens.access_token, '/api/v1/organizations')).status).toBe(401);
    await expect(client.refreshTokenGrant(rp, acmeTokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
    // The grant bound to the other organization is untouched.
    expect((await bearer(globexTokens.access_token, '/api/v1/organizations')).status).toBe(200);
    // The binding went with its grant: nothing is left to revoke.
    expect(await inTransaction((tx) => endOrganizationGrants(tx, { userId: ada.userId, organizationId: acme }, new Date()))).toBe(0);
  });

  it('is backed by the token endpoint: a bound grant issues nothing once the membership is not active', async () => {
    const { ada, acme } = await twoOrganizations();
    const bob = await person(mailbox, 'bob');
    await joinAs(acme, bob.userId, 'member');
    const rp = await portalRelyingParty();
    const tokens = await authorizeBound(rp, bob, { organization: acme });
    await (
      await getDb()
    )
      .update(memberships)
      .set({ status: 'suspended' })
      .where(and(eq(memberships.organizationId, acme), eq(memberships.userId, bob.userId)));
    await expect(client.refreshTokenGrant(rp, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
    // The pipeline's tenant check refuses the access token already issued (a non-member is not found).
    expect((await bearer(tokens.access_token, '/api/v1/organizations')).status).toBe(404);
    expect(ada.userId).not.toBe(bob.userId);
  });

  it('ends when an admin suspends or removes the member through the API: access and refresh tokens die at once', async () => {
    const { ada, acme } = await twoOrganizations();
    for (const change of ['suspend', 'remove'] as const) {
      const bob = await person(mailbox, `bob-${change}`);
      const membershipId = await joinAs(acme, bob.userId, 'member');
      const rp = await portalRelyingParty();
      const tokens = await authorizeBound(rp, bob, { organization: acme });
      expect((await bearer(tokens.access_token, '/api/v1/organizations')).status).toBe(200);
      const params = { id: acme, member_id: membershipId };
      const ended =
        change === 'suspend'
          ? await asBrowser(ada.browser, 'PATCH', '/api/organizations/{id}/members/{member_id}', { params, body: { status: 'suspended' } })
          : await asBrowser(ada.browser, 'DELETE', '/api/organizations/{id}/members/{member_id}', { params });
      expect(ended.status, change).toBe(200);
      // Revoked with the grant (not merely refused by the tenant check): the token is unknown now.
      expect((await bearer(tokens.access_token, '/api/v1/organizations')).status, change).toBe(401);
      await expect(client.refreshTokenGrant(rp, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
    }
  });
});
