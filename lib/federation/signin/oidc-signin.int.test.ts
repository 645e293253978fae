/**
 * Enterprise federation end to end through the real pipeline: a verified domain (a real DNS server on
 * loopback), a connection to a real second OpenID provider (node-oidc-provider over HTTPS with a CA
 * created here and trusted only through OUTBOUND_CA_FILE), activation and health, discovery, and a
 * sign-in that lands a new employee signed in with a membership. The refusals a real provider never
 * produces (wrong audience, issuer, nonce, expired, unverified e-mail ...) come from a scripted provider.
 */
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db';
import { auditEvents, federatedIdentities, federationConnections, organizationPolicies, users } from '@/lib/db/schema';
import { useMailbox } from '@/tests/helpers/accounts';
import { startDnsServer, type TestDnsServer } from '@/tests/helpers/federation/dns-server';
import { startExternalIdp, type ExternalIdp } from '@/tests/helpers/federation/external-idp';
import { startScriptedIdp, type ScriptedIdp } from '@/tests/helpers/federation/scripted-idp';
import { serveHttps } from '@/tests/helpers/federation/https';
import { createTestCa, type TestCa } from '@/tests/helpers/federation/test-ca';
import { problemOf } from '@/tests/helpers/http';
import { asBrowser, createOrganization, membershipOf, person, type Person } from '@/tests/helpers/organizations';
import { withEnv } from '@/tests/setup/state';

const mailbox = useMailbox();
const CALLBACK = 'http://localhost:3000/api/auth/federation/oidc/callback';
let dnsServer: TestDnsServer;
let ca: TestCa;
let idp: ExternalIdp;
let scripted: ScriptedIdp;
let restore: () => void;

beforeAll(async () => {
  dnsServer = await startDnsServer();
  ca = await createTestCa();
  idp = await startExternalIdp({ clients: [{ client_id: 'identity-service', client_secret: 'company-idp-secret', redirect_uris: [CALLBACK] }], ca });
  scripted = await startScriptedIdp({ ca });
  restore = withEnv({ DNS_SERVERS: dnsServer.address, OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true', OUTBOUND_CA_FILE: ca.caFile });
});
afterAll(async () => {
  restore();
  await Promise.all([dnsServer.close(), idp.close(), scripted.close()]);
});

let domains = 0;
/** A domain the organization has proven, through the DNS server. */
async function verifiedDomain(owner: Person, id: string): Promise<string> {
  domains += 1;
  const name = `corp${domains}-${randomUUID().slice(0, 6)}.test`;
  const claim = await (await asBrowser(owner.browser, 'POST', '/api/organizations/{id}/domains', { params: { id }, body: { domain: name } })).json();
  dnsServer.setTxt(claim.verification.name, [claim.verification.value]);
  const verified = await asBrowser(owner.browser, 'POST', '/api/organizations/{id}/domains/{domain_id}/verify', { params: { id, domain_id: claim.id } });
  expect(verified.status).toBe(200);
  return name;
}

interface ConnectionInput {
  issuer: string;
  client_id?: string;
  client_secret?: string;
  domains: string[];
}

async function register(owner: Person, id: string, input: ConnectionInput) {
  const connectionId = `corp-${randomUUID().slice(0, 8)}`;
  const body = {
    connection_id: connectionId,
    protocol: 'oidc',
    display_name: 'Corp SSO',
    client_id: 'identity-service',
    client_secret: 'company-idp-secret',
    ...input,
  };
  const response = await asBrowser(owner.browser, 'POST', '/api/organizations/{id}/federation/connections', { params: { id }, body });
  expect(response.status, await response.clone().text()).toBe(201);
  return connectionId;
}

const patch = (owner: Person, id: string, connectionId: string, status: string) =>
  asBrowser(owner.browser, 'PATCH', '/api/organizations/{id}/federation/connections/{connection_id}', {
    params: { id, connection_id: connectionId },
    body: { status },
    headers: { 'idempotency-key': randomUUID() },
  });

async function activeConnection(owner: Person, id: string, input: ConnectionInput): Promise<string> {
  const connectionId = await register(owner, id, input);
  const activated = await patch(owner, id, connectionId, 'active');
  expect(activated.status, await activated.clone().text()).toBe(200);
  return connectionId;
}

/** Start: the 302 to the provider and the cookie binding the transaction to this browser. */
async function start(connectionId: string) {
  const response = await asBrowser(null, 'GET', '/api/auth/federation/oidc/start', { query: `connection_id=${connectionId}` });
  expect(response.status, await response.clone().text()).toBe(302);
  const cookie = response.headers.get('set-cookie')!.split(';')[0]!;
  return { location: response.headers.get('location')!, cookie };
}

async function callback(url: URL, cookie: string | null) {
  const response = await asBrowser(null, 'GET', '/api/auth/federation/oidc/callback', { query: url.search.slice(1), headers: cookie ? { cookie } : {} });
  expect(response.status).toBe(302);
  return { location: response.headers.get('location'), sessionCookie: response.headers.get('set-cookie')?.split(';')[0] ?? null };
}

describe('federation connections', () => {
  it('registers (no secret returned), activates after validating the provider, reports health, disables and deletes', async () => {
    const ada = await person(mailbox, 'ada');
    const id = await createOrganization(ada);
    const domain = await verifiedDomain(ada, id);
    const connectionId = await register(ada, id, { issuer: idp.issuer, domains: [domain] });
    const list = await (await asBrowser(ada.browser, 'GET', '/api/organizations/{id}/federation/connections', { params: { id } })).json();
    expect(list.connections).toEqual([
      expect.objectContaining({
        connection_id: connectionId,
        status: 'registered',
        protocol: 'oidc',
        redirect_uri: CALLBACK,
        domains: [expect.objectContaining({ domain })],
      }),
    ]);
    expect(JSON.stringify(list)).not.toContain('company-idp-secret');
    const [stored] = await (await getDb()).select().from(federationConnections).where(eq(federationConnections.connectionId, connectionId));
    expect(stored!.clientSecretSealed).not.toContain('company-idp-secret');

    expect((await patch(ada, id, connectionId, 'active')).status).toBe(200);
    const health = await asBrowser(ada.browser, 'GET', '/api/organizations/{id}/federation/connections/{connection_id}/health', {
      params: { id, connection_id: connectionId },
    });
    expect(await health.json()).toMatchObject({ connection_id: connectionId, healthy: true, classification: 'ok' });

    // Deleting needs it disabled first; a domain an active connection relies on stays.
    const del = () =>
      asBrowser(ada.browser, 'DELETE', '/api/organizations/{id}/federation/connections/{connection_id}', {
        params: { id, connection_id: connectionId },
        headers: { 'idempotency-key': randomUUID() },
      });
    expect((await del()).status).toBe(409);
    const [claim] = (await (await asBrowser(ada.browser, 'GET', '/api/organizations/{id}/domains', { params: { id } })).json()).domains;
    const deleteDomain = () =>
      asBrowser(ada.browser, 'DELETE', '/api/organizations/{id}/domains/{domain_id}', {
        params: { id, domain_id: claim.id },
        headers: { 'idempotency-key': randomUUID() },
      });
    expect(await problemOf(await deleteDomain())).toMatchObject({
      code: 'conflict',
      detail: '1 active federation connection(s) rely on this domain; disable them first.',
    });
    expect((await patch(ada, id, connectionId, 'disabled')).status).toBe(200);
    expect((await del()).status).toBe(200);
    expect((await deleteDomain()).status).toBe(200);
  });

  it('refuses to serve a domain the organization has not verified, and another organization sees nothing', async () => {
    const ada = await person(mailbox, 'ada');
    const eve = await person(mailbox, 'eve');
    const id = await createOrganization(ada);
    const domain = await verifiedDomain(ada, id);
    const refused = await asBrowser(ada.browser, 'POST', '/api/organizations/{id}/federation/connections', {
      params: { id },
      body: {
        connection_id: 'unverified-x',
        protocol: 'oidc',
        display_name: 'X',
        issuer: idp.issuer,
        client_id: 'c',
        client_secret: 's',
        domains: ['not-ours.test'],
      },
    });
    expect(refused.status).toBe(400);
    const connectionId = await register(ada, id, { issuer: idp.issuer, domains: [domain] });
    const evesOrg = await createOrganization(eve, 'Eve');
    // Eve's own organization with ada's connection id, and eve registering ada's domain for her connection.
    expect((await patch(eve, evesOrg, connectionId, 'active')).status).toBe(404);
    const stolen = await asBrowser(eve.browser, 'POST', '/api/organizations/{id}/federation/connections', {
      params: { id: evesOrg },
      body: { connection_id: 'eve-steals', protocol: 'oidc', display_name: 'Eve', issuer: idp.issuer, client_id: 'c', client_secret: 's', domains: [domain] },
    });
    expect(stolen.status).toBe(400);
  });

  it('keeps a connection from activating when its provider fails validation, naming the check', async () => {
    const ada = await person(mailbox, 'ada');
    const id = await createOrganization(ada);
    const domain = await verifiedDomain(ada, id);
    const mismatched = await register(ada, id, { issuer: `${idp.issuer}/other`, domains: [domain] });
    const failed = await patch(ada, id, mismatched, 'active');
    expect(failed.status).toBe(422);
    expect(await problemOf(failed)).toMatchObject({ code: 'federation_validation_failed' });

    scripted.setMetadataOverrides({ token_endpoint: 'http://insecure.test/token' });
    const insecure = await register(ada, id, { issuer: scripted.issuer, domains: [domain] });
    expect(await problemOf(await patch(ada, id, insecure, 'active'))).toMatchObject({ classification: 'insecure_endpoint' });
    scripted.setMetadataOverrides({ id_token_signing_alg_values_supported: ['ES256'] });
    expect(await problemOf(await patch(ada, id, insecure, 'active'))).toMatchObject({ classification: 'no_rs256_support' });
    scripted.setMetadataOverrides({});
    expect((await patch(ada, id, insecure, 'active')).status).toBe(200);
  });

  it('refuses providers on loopback, private and metadata addresses, and redirects to them, unless private networks are allowed', async () => {
    const ada = await person(mailbox, 'ada');
    const id = await createOrganization(ada);
    const domain = await verifiedDomain(ada, id);
    // A provider whose discovery redirects to the metadata address: the first hop is made while private
    // networks are allowed (standing in for a public host), and the redirect is judged after they no
    // longer are, as a public host's redirect would be.
    let flip: (() => void) | null = null;
    const redirector = await serveHttps(ca, (_req, res) => {
      flip = withEnv({ OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'false' });
      res.writeHead(302, { location: 'https://169.254.169.254/.well-known/openid-configuration' }).end();
    });
    try {
      const redirected = await register(ada, id, { issuer: redirector.origin, domains: [domain] });
      expect(await problemOf(await patch(ada, id, redirected, 'active'))).toMatchObject({ classification: 'discovery_private_address' });
      expect(flip, 'the first hop reached the redirecting provider').not.toBeNull();
    } finally {
      (flip as (() => void) | null)?.();
      await redirector.close();
    }
    const guarded = withEnv({ OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'false' });
    try {
      for (const issuer of [idp.issuer, 'https://10.0.0.1', 'https://169.254.169.254', 'https://127.0.0.1:9']) {
        const connectionId = await register(ada, id, { issuer, domains: [domain] });
        const refused = await patch(ada, id, connectionId, 'active');
        expect(await problemOf(refused), issuer).toMatchObject({ classification: 'discovery_private_address' });
      }
    } finally {
      guarded();
    }
  });
});

describe('federated sign-in', () => {
  it('discovers the connection for a verified domain, signs a new employee in through the provider, and makes them a member', async () => {
    const ada = await person(mailbox, 'ada');
    const id = await createOrganization(ada);
    const domain = await verifiedDomain(ada, id);
    const connectionId = await activeConnection(ada, id, { issuer: idp.issuer, domains: [domain] });

    const found = await (await asBrowser(null, 'GET', '/api/auth/federation/discovery', { query: `email=new.hire%40${domain.toUpperCase()}` })).json();
    expect(found).toEqual({ connection_id: connectionId, protocol: 'oidc', display_name: 'Corp SSO' });
    const none = await (await asBrowser(null, 'GET', '/api/auth/federation/discovery', { query: 'email=someone%40elsewhere.test' })).json();
    expect(none).toEqual({ connection_id: null });

    const email = `new.hire@${domain}`;
    idp.setAccount('employee-1', { email, email_verified: true, name: 'New Hire' });
    const { location, cookie } = await start(connectionId);
    const authorization = new URL(location);
    expect(authorization.origin).toBe(new URL(idp.issuer).origin);
    expect(authorization.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorization.searchParams.get('redirect_uri')).toBe(CALLBACK);
    const returned = await idp.signIn(location, 'employee-1');
    const landed = await callback(returned, cookie);
    expect(landed.location).toBe('/sign-in?federation=signed_in');
    expect(landed.sessionCookie).toBeTruthy();

    const session = await asBrowser(null, 'GET', '/api/auth/session', { headers: { cookie: landed.sessionCookie! } });
    const body = await session.json();
    expect(body.user.email).toBe(email);
    expect(body.session.amr).toEqual(['fed']);
    const [user] = await (await getDb()).select().from(users).where(eq(users.email, email));
    expect((await membershipOf(id, user!.id)).status).toBe('active');
    expect((await asBrowser(null, 'GET', '/api/organizations/{id}/members', { params: { id }, headers: { cookie: landed.sessionCookie! } })).status).toBe(200);

    // The callback URL is single use: replayed (even with the right cookie), it signs nobody in.
    expect((await callback(returned, cookie)).location).toBe('/sign-in?federation=unknown_state');
    const audit = await (
      await getDb()
    )
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.organizationId, id), eq(auditEvents.action, 'signin.federation')));
    expect(audit).toHaveLength(1);
  });

  it('lets an organization require federation (signin.allowed_methods): a federated session acts in it, a password one must sign in again', async () => {
    const ada = await person(mailbox, 'ada');
    const id = await createOrganization(ada);
    const domain = await verifiedDomain(ada, id);
    const connectionId = await activeConnection(ada, id, { issuer: idp.issuer, domains: [domain] });
    idp.setAccount('erin', { email: `erin@${domain}`, email_verified: true });
    const { location, cookie } = await start(connectionId);
    const erin = await callback(await idp.signIn(location, 'erin'), cookie);
    // Set as stored (the policy API refuses a change that would shut out the admin making it: tested there).
    const now = new Date();
    await (
      await getDb()
    )
      .insert(organizationPolicies)
      .values({ organizationId: id, policyKey: 'signin.allowed_methods', value: ['federation'], createdAt: now, updatedAt: now });
    const members = (headers: Record<string, string>) => asBrowser(null, 'GET', '/api/organizations/{id}/members', { params: { id }, headers });
    expect((await members({ cookie: erin.sessionCookie! })).status).toBe(200);
    const refused = await members({ cookie: ada.browser.cookie });
    expect(refused.status).toBe(401);
    expect(await problemOf(refused)).toMatchObject({
      code: 'reauthentication_required',
      reauthentication: { reason: 'signin_method', allowed_methods: ['federation'] },
    });
  });

  it('keys the identity by (connection, subject): a second sign-in finds the same account, and an existing account with the e-mail is linked', async () => {
    const ada = await person(mailbox, 'ada');
    const id = await createOrganization(ada);
    const domain = await verifiedDomain(ada, id);
    const connectionId = await activeConnection(ada, id, { issuer: idp.issuer, domains: [domain] });
    // Bob already has an account with his work address (enrolled before the organization federated).
    const bob = await person(mailbox, 'bob');
    const bobWork = `bob@${domain}`;
    await (await getDb()).update(users).set({ email: bobWork }).where(eq(users.id, bob.userId));
    idp.setAccount('bob-sub', { email: bobWork, email_verified: true });
    for (let round = 0; round < 2; round++) {
      const { location, cookie } = await start(connectionId);
      expect((await callback(await idp.signIn(location, 'bob-sub'), cookie)).location).toBe('/sign-in?federation=signed_in');
    }
    const identities = await (await getDb()).select().from(federatedIdentities).where(eq(federatedIdentities.subject, 'bob-sub'));
    expect(identities.map((row) => row.userId)).toEqual([bob.userId]);
    expect((await membershipOf(id, bob.userId)).status).toBe('active');
  });

  it('does not complete in another browser (the binding cookie), nor for a disabled connection', async () => {
    const ada = await person(mailbox, 'ada');
    const id = await createOrganization(ada);
    const domain = await verifiedDomain(ada, id);
    const connectionId = await activeConnection(ada, id, { issuer: idp.issuer, domains: [domain] });
    idp.setAccount('carol', { email: `carol@${domain}`, email_verified: true });
    const first = await start(connectionId);
    const returned = await idp.signIn(first.location, 'carol');
    expect((await callback(returned, null)).location).toBe('/sign-in?federation=browser_mismatch');

    const second = await start(connectionId);
    const back = await idp.signIn(second.location, 'carol');
    expect((await patch(ada, id, connectionId, 'disabled')).status).toBe(200);
    expect((await callback(back, second.cookie)).location).toBe('/sign-in?federation=connection_disabled');
    // A disabled connection cannot be started either, and discovery no longer offers it.
    expect((await asBrowser(null, 'GET', '/api/auth/federation/oidc/start', { query: `connection_id=${connectionId}` })).status).toBe(400);
    expect(await (await asBrowser(null, 'GET', '/api/auth/federation/discovery', { query: `email=carol%40${domain}` })).json()).toEqual({
      connection_id: null,
    });
  });

  it('refuses each bad ID token with its classification, and creates nothing', async () => {
    const ada = await person(mailbox, 'ada');
    const id = await createOrganization(ada);
    const domain = await verifiedDomain(ada, id);
    const connectionId = await activeConnection(ada, id, { issuer: scripted.issuer, domains: [domain] });
    const cases: [string, Parameters<ScriptedIdp['nextToken']>[0], string][] = [
      ['wrong audience', { aud: 'someone-else' }, 'wrong_audience'],
      ['wrong issuer', { iss: 'https://evil.test' }, 'wrong_issuer'],
      ['wrong nonce', { nonce: 'not-the-nonce' }, 'wrong_nonce'],
      ['expired', { exp: Math.floor(Date.now() / 1000) - 600, iat: Math.floor(Date.now() / 1000) - 900 }, 'expired_token'],
      ['unverified e-mail', { email_verified: false }, 'unverified_email'],
      ['foreign domain', { email: 'dave@not-theirs.test' }, 'foreign_domain'],
      ['signed by another key', { signWithOtherKey: true }, 'invalid_signature'],
      ['HS256', { alg: 'HS256' }, 'invalid_signature'],
    ];
    scripted.setSubject('dave', { email: `dave@${domain}` });
    for (const [label, overrides, classification] of cases) {
      const { location, cookie } = await start(connectionId);
      const authorize = await fetchRedirect(location);
      scripted.nextToken(overrides);
      expect((await callback(authorize, cookie)).location, label).toBe(`/sign-in?federation=${classification}`);
    }
    expect(
      await (
        await getDb()
      )
        .select()
        .from(users)
        .where(eq(users.email, `dave@${domain}`)),
    ).toEqual([]);
    // The provider's own refusal (access_denied) and a callback without a state are classified too.
    const { location, cookie } = await start(connectionId);
    const state = new URL(location).searchParams.get('state');
    expect((await callback(new URL(`${CALLBACK}?state=${state}&error=access_denied`), cookie)).location).toBe('/sign-in?federation=provider_error');
    expect((await callback(new URL(`${CALLBACK}?code=x`), cookie)).location).toBe('/sign-in?federation=invalid_request');
  });
});

/** The scripted provider answers its authorization endpoint with a redirect at once: follow it. */
async function fetchRedirect(location: string): Promise<URL> {
  return scripted.authorize(location);
}
