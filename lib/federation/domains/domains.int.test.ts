/**
 * Verified domains through the real pipeline, against a real DNS server on loopback (DNS_SERVERS):
 * the record to publish, what verification finds when it fails, one organization per verified name,
 * public mail domains refused, the failed state after the window, tenant scoping, and the bearer read.
 */
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db';
import { auditEvents, organizationDomains, outboxEvents } from '@/lib/db/schema';
import { useMailbox } from '@/tests/helpers/accounts';
import { startDnsServer, type TestDnsServer } from '@/tests/helpers/federation/dns-server';
import { problemOf } from '@/tests/helpers/http';
import { asBearer, asBrowser, createOrganization, joinAs, organizationBearer, person } from '@/tests/helpers/organizations';
import { withEnv } from '@/tests/setup/state';

const mailbox = useMailbox();
let dnsServer: TestDnsServer;
let restore: () => void;

beforeAll(async () => {
  dnsServer = await startDnsServer();
  restore = withEnv({ DNS_SERVERS: dnsServer.address });
});
afterAll(async () => {
  restore();
  await dnsServer.close();
});

const domainsPath = '/api/organizations/{id}/domains';
const domainPath = '/api/organizations/{id}/domains/{domain_id}';
const verifyPath = '/api/organizations/{id}/domains/{domain_id}/verify';

interface DomainBody {
  id: string;
  domain: string;
  status: string;
  verification: { record_type: string; name: string; value: string };
}

async function register(browser: Parameters<typeof asBrowser>[0], id: string, domain: string): Promise<DomainBody> {
  const response = await asBrowser(browser, 'POST', domainsPath, { params: { id }, body: { domain } });
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as DomainBody;
}

const verify = (browser: Parameters<typeof asBrowser>[0], id: string, domainId: string) =>
  asBrowser(browser, 'POST', verifyPath, { params: { id, domain_id: domainId } });

describe('verified domains', () => {
  it('names the TXT record, says what it found while the record is wrong, and verifies once it is published', async () => {
    const ada = await person(mailbox, 'ada');
    const id = await createOrganization(ada);
    const claim = await register(ada.browser, id, 'Example-Corp.TEST.');
    expect(claim).toMatchObject({
      domain: 'example-corp.test',
      status: 'pending',
      verification: { record_type: 'TXT', name: '_identity-challenge.example-corp.test' },
    });
    expect(claim.verification.value).toMatch(/^identity-domain-verification=[A-Za-z0-9_-]{32}$/);

    const missing = await verify(ada.browser, id, claim.id);
    expect(missing.status).toBe(422);
    expect(await problemOf(missing)).toMatchObject({ code: 'domain_verification_failed', reason: 'no_record', found: [] });

    dnsServer.setTxt(claim.verification.name, ['v=spf1 -all', 'identity-domain-verification=typo']);
    const wrong = await verify(ada.browser, id, claim.id);
    expect(await problemOf(wrong)).toMatchObject({ reason: 'other_values', found: ['v=spf1 -all', 'identity-domain-verification=typo'] });

    // A long record travels in 255-byte chunks, which the resolver joins.
    dnsServer.setTxt(claim.verification.name, ['x'.repeat(600), claim.verification.value]);
    const verified = await verify(ada.browser, id, claim.id);
    expect(verified.status, await verified.clone().text()).toBe(200);
    expect(await verified.json()).toMatchObject({ id: claim.id, status: 'verified', verify_before: null });
    // Verifying again changes nothing and needs no DNS.
    dnsServer.remove(claim.verification.name);
    expect((await (await verify(ada.browser, id, claim.id)).json()).status).toBe('verified');

    const db = await getDb();
    const events = await db.select().from(outboxEvents).where(eq(outboxEvents.type, 'identity.organization.domain.verified'));
    expect(events.map((e) => e.payload)).toEqual([expect.objectContaining({ organization_id: id, domain_id: claim.id, domain: 'example-corp.test' })]);
    const audit = await db.select().from(auditEvents).where(eq(auditEvents.organizationId, id));
    expect(audit.map((row) => row.action)).toEqual(expect.arrayContaining(['domain.registered', 'domain.verified']));
  });

  it('answers a timeout when the resolver does not answer in time', async () => {
    const ada = await person(mailbox, 'ada');
    const id = await createOrganization(ada);
    const claim = await register(ada.browser, id, 'slow.test');
    dnsServer.setTxt(claim.verification.name, [claim.verification.value]);
    dnsServer.delay(claim.verification.name, 5_000);
    const slow = await verify(ada.browser, id, claim.id);
    expect(await problemOf(slow)).toMatchObject({ code: 'domain_verification_failed', reason: 'timeout' });
    dnsServer.delay(claim.verification.name, 0);
  });

  it('refuses public mail domains, addresses and malformed names, and a name verified by another organization', async () => {
    const ada = await person(mailbox, 'ada');
    const bob = await person(mailbox, 'bob');
    const id = await createOrganization(ada);
    for (const domain of ['gmail.com', 'OUTLOOK.com', 'mail.proton.me', '127.0.0.1', 'localhost', 'https://acme.test/', 'a..test', 'acme.test\u0000x']) {
      const refused = await asBrowser(ada.browser, 'POST', domainsPath, { params: { id }, body: { domain } });
      expect(refused.status, domain).toBe(400);
    }
    const claim = await register(ada.browser, id, 'acme-one.test');
    expect((await asBrowser(ada.browser, 'POST', domainsPath, { params: { id }, body: { domain: 'ACME-one.test' } })).status).toBe(409);
    dnsServer.setTxt(claim.verification.name, [claim.verification.value]);
    expect((await verify(ada.browser, id, claim.id)).status).toBe(200);

    const other = await createOrganization(bob, 'Other');
    const taken = await asBrowser(bob.browser, 'POST', domainsPath, { params: { id: other }, body: { domain: 'acme-one.test' } });
    expect(taken.status).toBe(409);
    expect((await problemOf(taken)).detail).toBe('This domain is verified by another organization.');
  });

  it('reads a claim past its window as failed; registering again replaces it with a new record', async () => {
    const ada = await person(mailbox, 'ada');
    const id = await createOrganization(ada);
    const claim = await register(ada.browser, id, 'late.test');
    const db = await getDb();
    await db
      .update(organizationDomains)
      .set({ createdAt: new Date(Date.now() - 8 * 86_400_000) })
      .where(eq(organizationDomains.id, claim.id));
    dnsServer.setTxt(claim.verification.name, [claim.verification.value]);
    const late = await verify(ada.browser, id, claim.id);
    expect(late.status).toBe(409);
    const list = await (await asBrowser(ada.browser, 'GET', domainsPath, { params: { id } })).json();
    expect(list.domains).toEqual([expect.objectContaining({ id: claim.id, status: 'failed' })]);
    const again = await register(ada.browser, id, 'late.test');
    expect(again.id).not.toBe(claim.id);
    expect(again.verification.value).not.toBe(claim.verification.value);
  });

  it('keeps domains to their organization, needs domains.manage, and deletes with an Idempotency-Key', async () => {
    const ada = await person(mailbox, 'ada');
    const eve = await person(mailbox, 'eve');
    const bob = await person(mailbox, 'bob');
    const id = await createOrganization(ada);
    await joinAs(id, bob.userId, 'member');
    const claim = await register(ada.browser, id, 'scoped.test');
    const evesOrg = await createOrganization(eve, 'Eve');

    // Another organization's admin, naming her own organization with ada's domain id: not found.
    expect((await verify(eve.browser, evesOrg, claim.id)).status).toBe(404);
    const foreignDelete = await asBrowser(eve.browser, 'DELETE', domainPath, {
      params: { id: evesOrg, domain_id: claim.id },
      headers: { 'idempotency-key': randomUUID() },
    });
    expect(foreignDelete.status).toBe(404);
    // A member reads, but cannot register or verify.
    expect((await asBrowser(bob.browser, 'GET', domainsPath, { params: { id } })).status).toBe(200);
    expect((await asBrowser(bob.browser, 'POST', domainsPath, { params: { id }, body: { domain: 'bob.test' } })).status).toBe(403);
    expect((await verify(bob.browser, id, claim.id)).status).toBe(403);

    const noKey = await asBrowser(ada.browser, 'DELETE', domainPath, { params: { id, domain_id: claim.id } });
    expect(noKey.status).toBe(400);
    const deleted = await asBrowser(ada.browser, 'DELETE', domainPath, { params: { id, domain_id: claim.id }, headers: { 'idempotency-key': randomUUID() } });
    expect(deleted.status).toBe(200);
    expect((await (await asBrowser(ada.browser, 'GET', domainsPath, { params: { id } })).json()).domains).toEqual([]);
  });

  it('lists only verified domains to an organization-bound bearer', async () => {
    const ada = await person(mailbox, 'ada');
    const id = await createOrganization(ada);
    const verified = await register(ada.browser, id, 'bearer-verified.test');
    await register(ada.browser, id, 'bearer-pending.test');
    dnsServer.setTxt(verified.verification.name, [verified.verification.value]);
    expect((await verify(ada.browser, id, verified.id)).status).toBe(200);
    const response = await asBearer(await organizationBearer(ada.userId, id), '/api/v1/organizations/{id}/domains', id);
    expect(response.status, await response.clone().text()).toBe(200);
    const body = await response.json();
    expect(body.domains).toEqual([expect.objectContaining({ id: verified.id, domain: 'bearer-verified.test', status: 'verified' })]);
  });
});
