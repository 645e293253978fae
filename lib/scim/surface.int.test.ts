/**
 * The SCIM surface as a directory meets it: the token (issued once, hashed, revoked at once), the
 * discovery documents, the SCIM error shape for every failure (authentication, unknown paths, wrong
 * methods, bad JSON, oversized bodies), tenant isolation, and the rule for linking existing accounts.
 */
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db';
import { organizationDomains, scimTokens } from '@/lib/db/schema';
import { as, signInWithPassword, signUpWithPassword, useMailbox } from '@/tests/helpers/accounts';
import { call, operation, ORIGIN } from '@/tests/helpers/http';
import { asBrowser, joinAs, membershipOf, PASSWORD, person } from '@/tests/helpers/organizations';
import { directory, provision, scimError, userBody } from '@/tests/helpers/scim';
import { domainClaim } from '@/tests/helpers/organization-fixtures';
import { notFound } from '@/lib/http/fallback';
import { serve } from '@/lib/http/serve';

const mailbox = useMailbox();

describe('SCIM tokens', () => {
  it('shows the token once, keeps only its hash, lists it with its last use, and revokes it at once', async () => {
    const dir = await directory(mailbox);
    expect(dir.token).toMatch(/^scim_[a-z2-7]{52}_[a-z2-7]{6}$/);
    const [row] = await (await getDb()).select().from(scimTokens).where(eq(scimTokens.id, dir.tokenId));
    expect(row!.tokenHash).not.toContain(dir.token.slice(5, 20));
    expect(JSON.stringify(row)).not.toContain(dir.token);
    expect((await dir.scim('GET', '/scim/v2/Users')).status).toBe(200);
    const listed = await asBrowser(dir.owner.browser, 'GET', '/api/organizations/{id}/scim/tokens', { params: { id: dir.id } });
    const tokens = ((await listed.json()) as { scim_tokens: Record<string, unknown>[] }).scim_tokens;
    expect(tokens).toHaveLength(1);
    expect(tokens[0]).toMatchObject({ id: dir.tokenId, status: 'active', prefix: dir.token.slice(0, 13) });
    expect(tokens[0]!.last_used_at).not.toBeNull();
    expect(JSON.stringify(tokens)).not.toContain(dir.token);
    const revoked = await asBrowser(dir.owner.browser, 'DELETE', '/api/organizations/{id}/scim/tokens/{token_id}', {
      params: { id: dir.id, token_id: dir.tokenId },
    });
    expect(revoked.status).toBe(200);
    const refused = await dir.scim('GET', '/scim/v2/Users');
    expect(refused.status).toBe(401);
    await scimError(refused);
  });

  it('needs scim.manage: a plain member can neither list nor issue tokens', async () => {
    const dir = await directory(mailbox);
    const member = await person(mailbox, 'member');
    await joinAs(dir.id, member.userId, 'member');
    expect((await asBrowser(member.browser, 'GET', '/api/organizations/{id}/scim/tokens', { params: { id: dir.id } })).status).toBe(403);
    expect((await asBrowser(member.browser, 'POST', '/api/organizations/{id}/scim/tokens', { params: { id: dir.id }, body: { name: 'Mine' } })).status).toBe(
      403,
    );
  });
});

describe('SCIM discovery', () => {
  it('states what is supported, lists the resource types and schemas', async () => {
    const dir = await directory(mailbox);
    const config = (await (await dir.scim('GET', '/scim/v2/ServiceProviderConfig')).json()) as { authenticationSchemes: unknown[] };
    expect(config).toMatchObject({
      patch: { supported: true },
      bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
      filter: { supported: true, maxResults: 500 },
      sort: { supported: false },
      etag: { supported: true },
      changePassword: { supported: false },
    });
    expect(config.authenticationSchemes[0]).toMatchObject({ type: 'oauthbearertoken', description: expect.any(String) });
    const types = (await (await dir.scim('GET', '/scim/v2/ResourceTypes')).json()) as { Resources: { endpoint: string }[] };
    expect(types.Resources.map((t) => t.endpoint)).toEqual(['/Users', '/Groups']);
    const schemaList = await (await dir.scim('GET', '/scim/v2/Schemas')).text();
    expect(schemaList).toContain('User Account');
    const user = await dir.scim('GET', '/scim/v2/Schemas/{id}', { params: { id: 'urn:ietf:params:scim:schemas:core:2.0:User' } });
    expect(((await user.json()) as { attributes: { name: string }[] }).attributes.map((a) => a.name)).toContain('userName');
    expect((await dir.scim('GET', '/scim/v2/Schemas/{id}', { params: { id: 'urn:nope' } })).status).toBe(404);
  });

  it('answers wrong methods, unknown paths, bad JSON and oversized bodies in the SCIM error shape', async () => {
    const dir = await directory(mailbox);
    const post = await serve('/scim/v2/ServiceProviderConfig').POST(new Request(`${ORIGIN}/scim/v2/ServiceProviderConfig`, { method: 'POST' }), {
      params: Promise.resolve({}),
    });
    expect(post.status).toBe(405);
    expect((await scimError(post)).detail).toContain('GET');
    expect(post.headers.get('x-request-id')).toBeTruthy();
    const unknown = await notFound.GET(new Request(`${ORIGIN}/scim/v2/Bulk`));
    expect(unknown.status).toBe(404);
    await scimError(unknown);
    const notJson = await dir.scim('POST', '/scim/v2/Users', { rawBody: '{"userName": tre' });
    expect(notJson.status).toBe(400);
    expect((await scimError(notJson)).scimType).toBe('invalidSyntax');
    const huge = await dir.scim('POST', '/scim/v2/Users', { body: userBody('big@example.test', { displayName: 'x'.repeat(1024 * 1024) }) });
    expect(huge.status).toBe(413);
    await scimError(huge);
    const nul = await dir.scim('POST', '/scim/v2/Users', { body: userBody('nul\u0000@example.test') });
    expect(nul.status).toBe(400);
    await scimError(nul);
  });
});

describe('SCIM tenant isolation and account linking', () => {
  it("never reaches another organization's users", async () => {
    const a = await directory(mailbox, 'a');
    const b = await directory(mailbox, 'b');
    const user = await provision(a, `iso.${randomUUID().slice(0, 8)}@a.test`);
    for (const method of ['GET', 'PUT', 'PATCH', 'DELETE'] as const) {
      const response = await b.scim(method, '/scim/v2/Users/{id}', {
        params: { id: user.id },
        body:
          method === 'GET' || method === 'DELETE'
            ? undefined
            : method === 'PUT'
              ? userBody('taken@b.test')
              : { Operations: [{ op: 'replace', path: 'active', value: false }] },
      });
      expect(response.status, method).toBe(404);
    }
    const listed = (await (await b.scim('GET', '/scim/v2/Users')).json()) as { totalResults: number };
    expect(listed.totalResults).toBe(0);
    expect(((await (await a.scim('GET', '/scim/v2/Users/{id}', { params: { id: user.id } })).json()) as { active: boolean }).active).toBe(true);
  });

  it('links an existing account only under a domain the organization verified', async () => {
    const dir = await directory(mailbox);
    const domain = `linked-${randomUUID().slice(0, 8)}.test`;
    const existing = { email: `someone@${domain}`, userId: await signUpWithPassword(mailbox, `someone@${domain}`, PASSWORD) };
    const refused = await dir.scim('POST', '/scim/v2/Users', { body: userBody(existing.email) });
    expect(refused.status).toBe(409);
    const error = await scimError(refused);
    expect(error.scimType).toBe('uniqueness');
    expect(error.detail).toContain('verified');
    // The organization proves it controls the domain (as DNS verification would mark it).
    const claim = await domainClaim({ id: dir.id, mailbox, owner: dir.owner });
    await (await getDb()).update(organizationDomains).set({ domain, status: 'verified', verifiedAt: new Date() }).where(eq(organizationDomains.id, claim.id));
    const linked = await dir.scim('POST', '/scim/v2/Users', { body: userBody(existing.email) });
    expect(linked.status).toBe(201);
    expect((await membershipOf(dir.id, existing.userId)).status).toBe('active');
    // The person is signed in; once the directory deactivates them, their session no longer reaches the organization.
    const browser = await signInWithPassword(existing.email, PASSWORD);
    const organization = () => asBrowser(browser, 'GET', '/api/organizations/{id}', { params: { id: dir.id } });
    expect((await organization()).status).toBe(200);
    const { id } = (await linked.json()) as { id: string };
    await dir.scim('PATCH', '/scim/v2/Users/{id}', { params: { id }, body: { Operations: [{ op: 'replace', path: 'active', value: false }] } });
    expect((await organization()).status).toBe(404);
    expect((await call(operation('GET', '/api/auth/session'), { headers: as(browser) })).status).toBe(200);
  });
});

describe('SCIM endpoint names', () => {
  it('are matched regardless of case (as some clients send them); other paths are 404 in the SCIM shape', async () => {
    const { scimCatchAll } = await import('@/lib/http/scim-paths');
    const dir = await directory(mailbox);
    const headers = { authorization: `Bearer ${dir.token}` };
    const users = await scimCatchAll.GET(new Request(`${ORIGIN}/scim/v2/users`, { headers }));
    expect(users.status).toBe(200);
    expect(((await users.json()) as { schemas: string[] }).schemas).toEqual(['urn:ietf:params:scim:api:messages:2.0:ListResponse']);
    const user = await provision(dir, `case.${randomUUID().slice(0, 8)}@directory.test`);
    const one = await scimCatchAll.GET(new Request(`${ORIGIN}/scim/v2/USERS/${user.id}`, { headers }));
    expect(((await one.json()) as { id: string }).id).toBe(user.id);
    const unknown = await scimCatchAll.GET(new Request(`${ORIGIN}/scim/v2/Bulk`, { headers }));
    expect(unknown.status).toBe(404);
    await scimError(unknown);
  });
});
