/**
 * A federation scene for tests outside lib/federation (the generated contract tests): a DNS server,
 * a test CA and a scripted OpenID provider on loopback, the environment pointing at them, started once
 * per test file when first asked for. Domains are proven through DNS, connections activated against
 * the provider, and a sign-in is driven up to its callback.
 */
import { afterAll } from 'vitest';
import { withEnv } from '@/tests/setup/state';
import { asBrowser, type Person } from '../organizations';
import { startDnsServer, type TestDnsServer } from './dns-server';
import { createSamlIdp } from './saml-idp';
import { startScriptedIdp, type ScriptedIdp } from './scripted-idp';
import { createTestCa } from './test-ca';

export interface FederationScene {
  dns: TestDnsServer;
  idp: ScriptedIdp;
}

let scene: Promise<FederationScene> | null = null;

/** The scene of this test file (registers its own teardown). */
export function federationScene(): Promise<FederationScene> {
  scene ??= (async () => {
    const dns = await startDnsServer();
    const ca = await createTestCa();
    const idp = await startScriptedIdp({ ca });
    const restore = withEnv({ DNS_SERVERS: dns.address, OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true', OUTBOUND_CA_FILE: ca.caFile });
    afterAll(async () => {
      restore();
      await Promise.all([dns.close(), idp.close()]);
    });
    return { dns, idp };
  })();
  return scene;
}

let names = 0;

/** A domain claim of the organization, with its TXT record published: verifying it succeeds. */
export async function provableDomain(owner: Person, id: string): Promise<{ id: string; domain: string }> {
  const { dns } = await federationScene();
  names += 1;
  const response = await asBrowser(owner.browser, 'POST', '/api/organizations/{id}/domains', {
    params: { id },
    body: { domain: `scene${names}-${Date.now()}.test` },
  });
  const claim = (await response.json()) as { id: string; domain: string; verification: { name: string; value: string } };
  dns.setTxt(claim.verification.name, [claim.verification.value]);
  return claim;
}

export async function verifiedDomain(owner: Person, id: string): Promise<string> {
  const claim = await provableDomain(owner, id);
  const verified = await asBrowser(owner.browser, 'POST', '/api/organizations/{id}/domains/{domain_id}/verify', { params: { id, domain_id: claim.id } });
  if (verified.status !== 200) throw new Error(`scene domain: ${verified.status} ${await verified.text()}`);
  return claim.domain;
}

/** A registered connection to the scene's provider for a verified domain. */
export async function sceneConnection(owner: Person, id: string): Promise<{ connectionId: string; domain: string }> {
  const { idp } = await federationScene();
  const domain = await verifiedDomain(owner, id);
  const connectionId = `scene-${names}-${Date.now()}`;
  const body = {
    connection_id: connectionId,
    protocol: 'oidc',
    display_name: 'Scene IdP',
    issuer: idp.issuer,
    client_id: 'scene-client',
    client_secret: 'scene-secret',
    domains: [domain],
  };
  const response = await asBrowser(owner.browser, 'POST', '/api/organizations/{id}/federation/connections', { params: { id }, body });
  if (response.status !== 201) throw new Error(`scene connection: ${response.status} ${await response.text()}`);
  return { connectionId, domain };
}

/** Starts a sign-in through the connection and lets the provider answer: the callback's query and the binding cookie. */
export async function returnFromProvider(connectionId: string, subject: string, email: string): Promise<{ query: string; cookie: string }> {
  const { idp } = await federationScene();
  idp.setSubject(subject, { email });
  const started = await asBrowser(null, 'GET', '/api/auth/federation/oidc/start', { query: `connection_id=${connectionId}` });
  if (started.status !== 302) throw new Error(`scene start: ${started.status} ${await started.text()}`);
  const back = await idp.authorize(started.headers.get('location')!);
  return { query: back.search.slice(1), cookie: started.headers.get('set-cookie')!.split(';')[0]! };
}

/**
 * An active SAML connection (metadata of an IdP made here) for a verified domain, a started sign-in,
 * and the IdP's signed answer for a new employee: the ACS request, ready to send (SAML_ENABLED must be on).
 */
export async function samlResponseReady(owner: Person, id: string, extraCookie = ''): Promise<() => Promise<Response>> {
  const domain = await verifiedDomain(owner, id);
  const idp = await createSamlIdp();
  const connectionId = `scene-saml-${Date.now()}`;
  const body = { connection_id: connectionId, protocol: 'saml', display_name: 'Scene SAML', domains: [domain], metadata_xml: idp.metadataXml };
  const created = await asBrowser(owner.browser, 'POST', '/api/organizations/{id}/federation/connections', { params: { id }, body });
  if (created.status !== 201) throw new Error(`scene SAML connection: ${created.status} ${await created.text()}`);
  const activated = await asBrowser(owner.browser, 'PATCH', '/api/organizations/{id}/federation/connections/{connection_id}', {
    params: { id, connection_id: connectionId },
    body: { status: 'active' },
    headers: { 'idempotency-key': `${connectionId}-activate` },
  });
  if (activated.status !== 200) throw new Error(`scene SAML activation: ${activated.status} ${await activated.text()}`);
  const started = await asBrowser(null, 'GET', '/api/auth/federation/saml/start', { query: `connection_id=${connectionId}` });
  const request = idp.request(started.headers.get('location')!);
  const cookie = started.headers.get('set-cookie')!.split(';')[0]!;
  const response = idp.respond({ inResponseTo: request.id, acs: request.acs, audience: request.issuer, nameId: `employee-${Date.now()}@${domain}` });
  return () =>
    asBrowser(null, 'POST', '/api/auth/federation/saml/acs', {
      rawBody: new URLSearchParams({ SAMLResponse: response }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: [cookie, extraCookie].filter(Boolean).join('; ') },
    });
}
