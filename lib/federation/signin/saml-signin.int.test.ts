/**
 * SAML behind its gate, through the real pipeline: a connection activates only with valid IdP
 * metadata (an expired certificate, a missing entity id or SSO service keep it registered), a response
 * signed here by the IdP's key is accepted once, and each attack is refused with its classification:
 * a response without InResponseTo (IdP-initiated), replays, the signature-wrapping variants, a comment
 * inside NameID, another key, and wrong audience, recipient or destination.
 */
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db';
import { users } from '@/lib/db/schema';
import { useMailbox } from '@/tests/helpers/accounts';
import { createSamlIdp, envelope, signedAssertionOf, type SamlIdp } from '@/tests/helpers/federation/saml-idp';
import { createSigningCertificate } from '@/tests/helpers/federation/test-ca';
import { problemOf } from '@/tests/helpers/http';
import { asBrowser, createOrganization, membershipOf, person, type Person } from '@/tests/helpers/organizations';
import { verifiedDomainOf } from '@/tests/helpers/organization-fixtures';
import { withEnv } from '@/tests/setup/state';

const mailbox = useMailbox();
const ACS = 'http://localhost:3000/api/auth/federation/saml/acs';
let restore: () => void;
beforeAll(() => {
  restore = withEnv({ SAML_ENABLED: 'true' });
});
afterAll(() => restore());

interface Scene {
  owner: Person;
  id: string;
  domain: string;
  idp: SamlIdp & { key: { keyPem: string; certPem: string } };
  connectionId: string;
  audience: string;
}

const patch = (owner: Person, id: string, connectionId: string, status: string) =>
  asBrowser(owner.browser, 'PATCH', '/api/organizations/{id}/federation/connections/{connection_id}', {
    params: { id, connection_id: connectionId },
    body: { status },
    headers: { 'idempotency-key': randomUUID() },
  });

async function register(owner: Person, id: string, domain: string, metadataXml: string): Promise<string> {
  const connectionId = `saml-${randomUUID().slice(0, 8)}`;
  const body = { connection_id: connectionId, protocol: 'saml', display_name: 'Corp SAML', domains: [domain], metadata_xml: metadataXml };
  const response = await asBrowser(owner.browser, 'POST', '/api/organizations/{id}/federation/connections', { params: { id }, body });
  expect(response.status, await response.clone().text()).toBe(201);
  return connectionId;
}

async function scene(): Promise<Scene> {
  const owner = await person(mailbox, 'ada');
  const id = await createOrganization(owner);
  const domain = await verifiedDomainOf({ id, owner, mailbox });
  const idp = await createSamlIdp();
  const connectionId = await register(owner, id, domain, idp.metadataXml);
  expect((await patch(owner, id, connectionId, 'active')).status).toBe(200);
  return { owner, id, domain, idp, connectionId, audience: `http://localhost:3000/api/auth/federation/saml/${connectionId}/metadata` };
}

/** A start: the AuthnRequest the IdP receives, and this browser's binding cookie. */
async function start(s: Scene) {
  const response = await asBrowser(null, 'GET', '/api/auth/federation/saml/start', { query: `connection_id=${s.connectionId}` });
  expect(response.status, await response.clone().text()).toBe(302);
  const location = response.headers.get('location')!;
  expect(location.startsWith(s.idp.ssoUrl)).toBe(true);
  return { request: s.idp.request(location), cookie: response.headers.get('set-cookie')!.split(';')[0]! };
}

async function post(samlResponse: string, cookie: string | null) {
  const response = await asBrowser(null, 'POST', '/api/auth/federation/saml/acs', {
    rawBody: new URLSearchParams({ SAMLResponse: samlResponse }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) },
  });
  expect(response.status).toBe(303);
  return { location: response.headers.get('location'), session: response.headers.get('set-cookie')?.split(';')[0] ?? null };
}

describe('SAML connections', () => {
  it('show the SP values, serve SP metadata, and activate only with valid IdP metadata', async () => {
    const owner = await person(mailbox, 'ada');
    const id = await createOrganization(owner);
    const domain = await verifiedDomainOf({ id, owner, mailbox });
    const idp = await createSamlIdp();
    const connectionId = await register(owner, id, domain, idp.metadataXml);
    const list = await (await asBrowser(owner.browser, 'GET', '/api/organizations/{id}/federation/connections', { params: { id } })).json();
    const metadataUrl = `http://localhost:3000/api/auth/federation/saml/${connectionId}/metadata`;
    expect(list.connections[0]).toMatchObject({
      protocol: 'saml',
      status: 'registered',
      sp: { entity_id: metadataUrl, acs_url: ACS, metadata_url: metadataUrl },
    });
    const metadata = await asBrowser(null, 'GET', '/api/auth/federation/saml/{connection_id}/metadata', { params: { connection_id: connectionId } });
    expect(metadata.headers.get('content-type')).toContain('xml');
    const xml = await metadata.text();
    expect(xml).toContain(`entityID="${metadataUrl}"`);
    expect(xml).toContain(`Location="${ACS}"`);

    const expired = await createSamlIdp({ notAfter: new Date(Date.now() - 86_400_000) });
    const withoutEntity = idp.metadataXml.replace(/entityID="[^"]+"/, '');
    const spOnly = idp.metadataXml.replaceAll('IDPSSODescriptor', 'SPSSODescriptor');
    const plainHttp = idp.metadataXml.replace(/Location="https:/, 'Location="http:');
    const doctype = `<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>${idp.metadataXml}`;
    for (const [xmlText, classification] of [
      [expired.metadataXml, 'certificate_expired'],
      [withoutEntity, 'no_entity_id'],
      [spOnly, 'no_sso_service'],
      [plainHttp, 'insecure_sso_url'],
      [doctype, 'invalid_metadata'],
    ] as const) {
      const refused = await patch(owner, id, await register(owner, id, domain, xmlText), 'active');
      expect(await problemOf(refused), classification).toMatchObject({ code: 'federation_validation_failed', classification });
    }
  });

  it('stays gated: with SAML switched off, starting answers 503 and discovery does not offer it', async () => {
    const s = await scene();
    const off = withEnv({ SAML_ENABLED: 'false' });
    try {
      expect((await asBrowser(null, 'GET', '/api/auth/federation/saml/start', { query: `connection_id=${s.connectionId}` })).status).toBe(503);
      expect(await (await asBrowser(null, 'GET', '/api/auth/federation/discovery', { query: `email=a%40${s.domain}` })).json()).toEqual({
        connection_id: null,
      });
    } finally {
      off();
    }
    expect(await (await asBrowser(null, 'GET', '/api/auth/federation/discovery', { query: `email=a%40${s.domain}` })).json()).toMatchObject({
      connection_id: s.connectionId,
      protocol: 'saml',
    });
  });
});

describe('SAML sign-in', () => {
  it('accepts a signed response once: a new employee lands signed in with a membership', async () => {
    const s = await scene();
    const { request, cookie } = await start(s);
    expect(request).toMatchObject({ acs: ACS, issuer: s.audience });
    const email = `new.hire@${s.domain}`;
    const response = s.idp.respond({ inResponseTo: request.id, acs: ACS, audience: s.audience, nameId: email });
    const landed = await post(response, cookie);
    expect(landed.location).toBe('/sign-in?federation=signed_in');
    const session = await (await asBrowser(null, 'GET', '/api/auth/session', { headers: { cookie: landed.session! } })).json();
    expect(session).toMatchObject({ user: { email }, session: { amr: ['fed'] } });
    const [user] = await (await getDb()).select().from(users).where(eq(users.email, email));
    expect((await membershipOf(s.id, user!.id)).status).toBe('active');
    // The same response again: its request is spent.
    expect((await post(response, cookie)).location).toBe('/sign-in?federation=unknown_state');
  });

  it('refuses an assertion seen before, even inside a new envelope answering another request', async () => {
    const s = await scene();
    const first = await start(s);
    // This IdP leaves InResponseTo out of the subject confirmation: only the envelope names the request.
    const response = s.idp.respond({
      inResponseTo: first.request.id,
      acs: ACS,
      audience: s.audience,
      nameId: `ann@${s.domain}`,
      confirmationInResponseTo: false,
    });
    expect((await post(response, first.cookie)).location).toBe('/sign-in?federation=signed_in');
    const second = await start(s);
    const rewrapped = envelope({ inResponseTo: second.request.id, destination: ACS, issuer: s.idp.entityId }, signedAssertionOf(response));
    expect((await post(Buffer.from(rewrapped).toString('base64'), second.cookie)).location).toBe('/sign-in?federation=replayed_assertion');
  });

  it('refuses an IdP-initiated response, another browser, and a response for no request of ours', async () => {
    const s = await scene();
    const unsolicited = s.idp.respond({ inResponseTo: null, acs: ACS, audience: s.audience, nameId: `bob@${s.domain}` });
    expect((await post(unsolicited, null)).location).toBe('/sign-in?federation=unsolicited_response');
    const { request } = await start(s);
    const response = s.idp.respond({ inResponseTo: request.id, acs: ACS, audience: s.audience, nameId: `bob@${s.domain}` });
    expect((await post(response, null)).location).toBe('/sign-in?federation=browser_mismatch');
    const unknown = s.idp.respond({ inResponseTo: '_never-issued', acs: ACS, audience: s.audience, nameId: `bob@${s.domain}` });
    expect((await post(unknown, 'federation-saml=x')).location).toBe('/sign-in?federation=unknown_state');
    expect((await post('not base64 xml', null)).location).toBe('/sign-in?federation=invalid_response');
  });

  it('refuses the signature-wrapping variants, another key, and a comment inside NameID', async () => {
    const s = await scene();
    const victim = `victim@${s.domain}`;
    const attacker = await createSigningCertificate({ commonName: 'Attacker' });
    const evilAssertion = (inner: string) =>
      `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_evil" Version="2.0" IssueInstant="${new Date().toISOString()}"><saml:Issuer>${s.idp.entityId}</saml:Issuer>` +
      `<saml:Subject><saml:NameID>${victim}</saml:NameID></saml:Subject>${inner}` +
      `<saml:AttributeStatement><saml:Attribute Name="email"><saml:AttributeValue>${victim}</saml:AttributeValue></saml:Attribute></saml:AttributeStatement></saml:Assertion>`;
    const variants: [string, (requestId: string) => string, string][] = [
      [
        'signed assertion moved inside an unsigned one',
        (requestId) => {
          const signed = signedAssertionOf(s.idp.respond({ inResponseTo: requestId, acs: ACS, audience: s.audience, nameId: `mallory@${s.domain}` }));
          return envelope({ inResponseTo: requestId, destination: ACS, issuer: s.idp.entityId }, evilAssertion(`<saml:Advice>${signed}</saml:Advice>`));
        },
        'invalid_signature',
      ],
      [
        'a second, unsigned assertion',
        (requestId) => {
          const signed = signedAssertionOf(s.idp.respond({ inResponseTo: requestId, acs: ACS, audience: s.audience, nameId: `mallory@${s.domain}` }));
          return envelope({ inResponseTo: requestId, destination: ACS, issuer: s.idp.entityId }, evilAssertion('') + signed);
        },
        'invalid_signature',
      ],
      [
        're-signed by another key',
        (requestId) =>
          Buffer.from(
            s.idp.respond({
              inResponseTo: requestId,
              acs: ACS,
              audience: s.audience,
              nameId: victim,
              signWith: { keyPem: attacker.keyPem, certPem: attacker.certPem },
            }),
            'base64',
          ).toString('utf8'),
        'invalid_signature',
      ],
      [
        'a signed assertion edited after signing',
        (requestId) =>
          Buffer.from(s.idp.respond({ inResponseTo: requestId, acs: ACS, audience: s.audience, nameId: `mallory@${s.domain}` }), 'base64')
            .toString('utf8')
            .replaceAll(`mallory@${s.domain}`, victim),
        'invalid_signature',
      ],
      [
        // The IdP signs a NameID of a domain the attacker controls; a comment must not cut it to the victim's.
        'a comment inside NameID',
        (requestId) =>
          Buffer.from(
            s.idp.respond({ inResponseTo: requestId, acs: ACS, audience: s.audience, nameId: `${victim}<!---->.attacker.test`, email: null }),
            'base64',
          ).toString('utf8'),
        'foreign_domain',
      ],
    ];
    for (const [label, build, classification] of variants) {
      const { request, cookie } = await start(s);
      expect((await post(Buffer.from(build(request.id)).toString('base64'), cookie)).location, label).toBe(`/sign-in?federation=${classification}`);
    }
    expect(await (await getDb()).select().from(users).where(eq(users.email, victim))).toEqual([]);
    // The signing itself is sound: the same flow with an honest response signs in.
    const honest = await start(s);
    expect((await post(s.idp.respond({ inResponseTo: honest.request.id, acs: ACS, audience: s.audience, nameId: victim }), honest.cookie)).location).toBe(
      '/sign-in?federation=signed_in',
    );
  });

  it('refuses a wrong audience, recipient, destination, an expired assertion and a foreign domain', async () => {
    const s = await scene();
    const cases: [string, Partial<Parameters<SamlIdp['respond']>[0]>, string][] = [
      ['audience', { audience: 'https://another-sp.example.test' }, 'wrong_audience'],
      ['recipient', { recipient: 'https://evil.example.test/acs' }, 'wrong_recipient'],
      ['destination', { destination: 'https://evil.example.test/acs' }, 'wrong_destination'],
      ['expired', { notOnOrAfter: new Date(Date.now() - 5 * 60_000) }, 'expired_token'],
      ['foreign domain', { nameId: 'someone@not-theirs.test' }, 'foreign_domain'],
      ['issuer', { issuer: 'https://other-idp.example.test' }, 'wrong_issuer'],
    ];
    for (const [label, change, classification] of cases) {
      const { request, cookie } = await start(s);
      const response = s.idp.respond({ inResponseTo: request.id, acs: ACS, audience: s.audience, nameId: `carol@${s.domain}`, ...change });
      expect((await post(response, cookie)).location, label).toBe(`/sign-in?federation=${classification}`);
    }
  });
});
