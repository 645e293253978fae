/**
 * SCIM Users through the real pipeline and database: provisioning makes an account and an active
 * membership; active false suspends it (organization access ends), true restores it; DELETE revokes;
 * uniqueness, linking rules, ETags and what real clients send.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useMailbox } from '@/tests/helpers/accounts';
import { membershipOf } from '@/tests/helpers/organizations';
import { directory, patchOp, provision, scimError, userBody } from '@/tests/helpers/scim';
import { getDb } from '@/lib/db';
import { scimUserBlocks, scimUsers, users } from '@/lib/db/schema';
import { eq, sql } from 'drizzle-orm';
import { BLOCK_SIZE } from './users.repo';

const mailbox = useMailbox();
const address = (label: string) => `${label}.${randomUUID().slice(0, 8)}@directory.test`;

async function accountOf(email: string) {
  const [row] = await (await getDb()).select().from(users).where(eq(users.email, email));
  return row;
}

describe('SCIM users', () => {
  it('provisions an account and an active membership, answering 201 with Location, ETag and meta', async () => {
    const dir = await directory(mailbox);
    const email = address('grace');
    const response = await dir.scim('POST', '/scim/v2/Users', { body: userBody(email, { externalId: 'ext-1', displayName: 'Grace' }) });
    expect(response.status).toBe(201);
    expect(response.headers.get('content-type')).toBe('application/scim+json');
    const user = (await response.json()) as { meta: { location: string; version: string } };
    expect(response.headers.get('location')).toBe(user.meta.location);
    expect(response.headers.get('etag')).toBe(user.meta.version);
    expect(user).toMatchObject({ userName: email, externalId: 'ext-1', displayName: 'Grace', active: true, meta: { resourceType: 'User' } });
    const account = await accountOf(email);
    expect(account).toBeDefined();
    expect((await membershipOf(dir.id, account!.id)).status).toBe('active');
  });

  it('answers 409 uniqueness for the same userName in any case', async () => {
    const dir = await directory(mailbox);
    const email = address('dup');
    await provision(dir, email);
    const again = await dir.scim('POST', '/scim/v2/Users', { body: userBody(email.toUpperCase()) });
    expect(again.status).toBe(409);
    expect((await scimError(again)).scimType).toBe('uniqueness');
  });

  it('suspends on active false (PATCH with and without path, Entra strings), restores on true, revokes on DELETE', async () => {
    const dir = await directory(mailbox);
    const email = address('okta');
    const user = await provision(dir, email);
    const account = await accountOf(email);
    const pathless = await dir.scim('PATCH', '/scim/v2/Users/{id}', { params: { id: user.id }, body: patchOp({ op: 'replace', value: { active: false } }) });
    expect(pathless.status, await pathless.clone().text()).toBe(200);
    expect(((await pathless.json()) as { active: boolean }).active).toBe(false);
    expect((await membershipOf(dir.id, account!.id)).status).toBe('suspended');
    const entra = await dir.scim('PATCH', '/scim/v2/Users/{id}', { params: { id: user.id }, body: patchOp({ op: 'Replace', path: 'active', value: 'True' }) });
    expect(((await entra.json()) as { active: boolean }).active).toBe(true);
    expect((await membershipOf(dir.id, account!.id)).status).toBe('active');
    const gone = await dir.scim('DELETE', '/scim/v2/Users/{id}', { params: { id: user.id } });
    expect(gone.status).toBe(204);
    expect((await membershipOf(dir.id, account!.id)).status).toBe('revoked');
    expect((await dir.scim('GET', '/scim/v2/Users/{id}', { params: { id: user.id } })).status).toBe(404);
  });

  it('lists with filters, count and startIndex', async () => {
    const dir = await directory(mailbox);
    const emails = [address('a'), address('b'), address('c')];
    for (const email of emails) await provision(dir, email);
    const filtered = await dir.scim('GET', '/scim/v2/Users', { query: `filter=${encodeURIComponent(`userName eq "${emails[1]!.toUpperCase()}"`)}` });
    const body = (await filtered.json()) as { totalResults: number; Resources: { userName: string }[] };
    expect(body.totalResults).toBe(1);
    expect(body.Resources[0]!.userName).toBe(emails[1]);
    const page = (await (await dir.scim('GET', '/scim/v2/Users', { query: 'startIndex=2&count=1' })).json()) as Record<string, unknown>;
    expect(page).toMatchObject({ totalResults: 3, itemsPerPage: 1, startIndex: 2 });
    const bad = await dir.scim('GET', '/scim/v2/Users', { query: `filter=${encodeURIComponent('userName sw "a"')}` });
    expect(bad.status).toBe(400);
    expect((await scimError(bad)).scimType).toBe('invalidFilter');
  });

  it('pages by position across sparse blocks (startIndex never walks the rows before it)', async () => {
    const dir = await directory(mailbox);
    const provisioned = [];
    for (const label of ['p0', 'p1', 'p2', 'p3', 'p4', 'p5']) provisioned.push(await provision(dir, address(label)));
    // Spread the users over blocks as a large, long-lived directory would have them (gaps, several per block).
    // Positions not in creation order, so the list's order shows it follows them.
    const seqs = [9 * BLOCK_SIZE, 10, 3 * BLOCK_SIZE, BLOCK_SIZE + 2, 5 * BLOCK_SIZE + 7, BLOCK_SIZE + 1];
    const db = await getDb();
    for (const [index, user] of provisioned.entries()) await db.update(scimUsers).set({ seq: seqs[index]! }).where(eq(scimUsers.id, user.id));
    await db.delete(scimUserBlocks).where(eq(scimUserBlocks.organizationId, dir.id));
    await db.execute(sql`insert into scim_user_blocks (organization_id, block, live_count)
      select organization_id, seq / ${BLOCK_SIZE}, count(*) from scim_users where organization_id = ${dir.id} and deprovisioned_at is null group by 1, 2`);
    // One leaves: its block counts one fewer.
    expect((await dir.scim('DELETE', '/scim/v2/Users/{id}', { params: { id: provisioned[2]!.id } })).status).toBe(204);
    const order = provisioned
      .map((user, index) => ({ id: user.id, seq: seqs[index]! }))
      .filter((_u, index) => index !== 2)
      .sort((a, b) => a.seq - b.seq)
      .map((user) => user.id);
    for (let startIndex = 0; startIndex <= order.length + 1; startIndex++) {
      for (const count of [1, 2, 3]) {
        const page = (await (await dir.scim('GET', '/scim/v2/Users', { query: `startIndex=${startIndex}&count=${count}` })).json()) as {
          totalResults: number;
          startIndex: number;
          Resources: { id: string }[];
        };
        const from = Math.max(1, startIndex) - 1;
        expect(page.totalResults).toBe(order.length);
        expect(
          page.Resources.map((r) => r.id),
          `startIndex=${startIndex} count=${count}`,
        ).toEqual(order.slice(from, from + count));
      }
    }
    const none = (await (await dir.scim('GET', '/scim/v2/Users', { query: 'count=0' })).json()) as { totalResults: number; Resources: unknown[] };
    expect(none).toMatchObject({ totalResults: order.length, Resources: [] });
  });

  it('answers 304 for a current If-None-Match and 412 for a stale If-Match', async () => {
    const dir = await directory(mailbox);
    const user = await provision(dir, address('etag'));
    const notModified = await dir.scim('GET', '/scim/v2/Users/{id}', { params: { id: user.id }, headers: { 'if-none-match': user.meta.version } });
    expect(notModified.status).toBe(304);
    const changed = await dir.scim('PATCH', '/scim/v2/Users/{id}', {
      params: { id: user.id },
      headers: { 'if-match': user.meta.version },
      body: patchOp({ op: 'replace', path: 'displayName', value: 'New' }),
    });
    expect(changed.status).toBe(200);
    const stale = await dir.scim('PUT', '/scim/v2/Users/{id}', {
      params: { id: user.id },
      headers: { 'if-match': user.meta.version },
      body: userBody(user.userName),
    });
    expect(stale.status).toBe(412);
    await scimError(stale);
    const any = await dir.scim('PUT', '/scim/v2/Users/{id}', { params: { id: user.id }, headers: { 'if-match': '*' }, body: userBody(user.userName) });
    expect(any.status).toBe(200);
  });

  it('answers authentication failures, unknown paths and wrong methods in the SCIM error shape', async () => {
    const dir = await directory(mailbox);
    const anonymous = await dir.scim('GET', '/scim/v2/Users', { headers: { authorization: 'Bearer scim_nope' } });
    expect(anonymous.status).toBe(401);
    await scimError(anonymous);
  });
});
