import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db';
import { memberships, organizations } from '@/lib/db/schema';
import { signUpWithPassword, useMailbox } from '@/tests/helpers/accounts';
import { call, operation, problemOf } from '@/tests/helpers/http';
import { mintAccessToken } from '@/tests/helpers/oauth';

const mailbox = useMailbox();
const list = (token: string, query = '') => call(operation('GET', '/api/v1/me/memberships'), { headers: { authorization: `Bearer ${token}` }, query });

/** Organizations are created by the console; here the rows are written directly as test data. */
async function organization(
  name: string,
  members: { userId: string; role: 'owner' | 'admin' | 'member'; status?: 'active' | 'suspended' | 'revoked'; at: string }[],
) {
  const db = await getDb();
  const id = randomUUID();
  await db
    .insert(organizations)
    .values({ id, name, slug: `org-${id}`, createdAt: new Date('2026-01-01T00:00:00Z'), updatedAt: new Date('2026-01-01T00:00:00Z') });
  for (const m of members) {
    await db.insert(memberships).values({
      id: randomUUID(),
      organizationId: id,
      userId: m.userId,
      role: m.role,
      status: m.status ?? 'active',
      createdAt: new Date(m.at),
      updatedAt: new Date(m.at),
    });
  }
  return id;
}

describe('GET /api/v1/me/memberships', () => {
  // ASVS V10.3.2
  it("lists only the credential owner's active memberships, newest first, in the bearer envelope", async () => {
    const ada = await signUpWithPassword(mailbox, 'ada.member@example.test', 'membership listing passphrase');
    const bob = await signUpWithPassword(mailbox, 'bob.member@example.test', 'membership listing passphrase');
    const acme = await organization('Acme', [
      { userId: ada, role: 'owner', at: '2026-02-01T00:00:00Z' },
      { userId: bob, role: 'member', at: '2026-02-02T00:00:00Z' },
    ]);
    const globex = await organization('Globex', [{ userId: ada, role: 'member', at: '2026-03-01T00:00:00Z' }]);
    await organization('Initech', [{ userId: ada, role: 'admin', status: 'suspended', at: '2026-04-01T00:00:00Z' }]);
    await organization('Umbrella', [{ userId: bob, role: 'owner', at: '2026-05-01T00:00:00Z' }]);

    const token = (await mintAccessToken(ada, 'identity.organization.read')).value;
    const response = await list(token);
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.memberships.map((m: { organization: { id: string }; role: string }) => [m.organization.id, m.role])).toEqual([
      [globex, 'member'],
      [acme, 'owner'],
    ]);
    expect(body).toMatchObject({ has_more: false, next_cursor: null, authentication: 'oauth', scopes: ['identity.organization.read'] });

    const first = await (await list(token, 'limit=1')).json();
    expect(first.memberships).toHaveLength(1);
    expect(first.has_more).toBe(true);
    const second = await (await list(token, `limit=1&cursor=${encodeURIComponent(first.next_cursor)}`)).json();
    expect(second.memberships[0].organization).toEqual({ id: acme, name: 'Acme' });
    expect(second.has_more).toBe(false);
  });

  it('takes no organization selector and needs identity.organization.read', async () => {
    const cy = await signUpWithPassword(mailbox, 'cy.member@example.test', 'membership listing passphrase');
    const narrow = await list((await mintAccessToken(cy, 'identity.profile.read')).value);
    expect(narrow.status).toBe(403);
    expect((await problemOf(narrow)).code).toBe('insufficient_scope');
    const selector = await list((await mintAccessToken(cy, 'identity.organization.read')).value, 'organization_id=x');
    expect(selector.status).toBe(400);
  });

  it('appear in the privacy export', async () => {
    const dee = await signUpWithPassword(mailbox, 'dee.member@example.test', 'membership listing passphrase');
    const org = await organization('Hooli', [{ userId: dee, role: 'admin', at: '2026-06-01T00:00:00Z' }]);
    const token = (await mintAccessToken(dee, 'identity.privacy.export')).value;
    const exported = await (await call(operation('GET', '/api/v1/privacy/export'), { headers: { authorization: `Bearer ${token}` } })).json();
    expect(exported.memberships).toEqual([
      { id: expect.any(String), organization: { id: org, name: 'Hooli' }, role: 'admin', created_at: '2026-06-01T00:00:00.000Z' },
    ]);
  });
});
