/**
 * The audit trails name their parties, read when they are read: the organization's log names people
 * (members, former members) by address, roles, groups and the organization by name, invited addresses
 * only to readers who manage invitations, and says what an update changed (old → new for roles,
 * statuses, names and slugs); the developer's own activity names their keys, applications and webhooks.
 */
import { describe, expect, it } from 'vitest';
import { useMailbox } from '@/tests/helpers/accounts';
import { asBrowser, invite, joinAs, ownedOrganization, person, type Person } from '@/tests/helpers/organizations';

const mailbox = useMailbox({ RATE_LIMIT_SCALE: '50' });

interface Named {
  type: string;
  id: string | null;
  name?: string | null;
}
interface AuditEvent {
  action: string;
  actor: Named;
  subject: Named | null;
  data: Record<string, unknown>;
  changes?: { field: string; from?: unknown; to?: unknown }[];
}

async function events(who: Person, id: string, action: string): Promise<AuditEvent[]> {
  const response = await asBrowser(who.browser, 'GET', '/api/organizations/{id}/audit-events', { params: { id }, query: `action=${action}` });
  expect(response.status).toBe(200);
  return ((await response.json()) as { audit_events: AuditEvent[] }).audit_events;
}

const patchMember = (who: Person, id: string, memberId: string, body: unknown) =>
  asBrowser(who.browser, 'PATCH', '/api/organizations/{id}/members/{member_id}', { params: { id, member_id: memberId }, body });

describe('the organization audit log', () => {
  it('names the member changed and who changed them, and the role and status old → new', async () => {
    const { owner, id } = await ownedOrganization(mailbox);
    const bob = await person(mailbox, 'bob');
    const membershipId = await joinAs(id, bob.userId, 'member');
    expect((await patchMember(owner, id, membershipId, { role: 'admin' })).status).toBe(200);
    expect((await patchMember(owner, id, membershipId, { status: 'suspended' })).status).toBe(200);

    const [suspended, promoted] = await events(owner, id, 'member.updated');
    expect(promoted).toMatchObject({
      actor: { type: 'session', id: owner.userId, name: owner.email },
      subject: { type: 'membership', id: membershipId, name: bob.email },
      changes: [{ field: 'role', from: 'member', to: 'admin' }],
    });
    expect(suspended?.changes).toEqual([{ field: 'status', from: 'active', to: 'suspended' }]);

    // A former member is still named (their address is in the members list under status=revoked).
    expect((await asBrowser(owner.browser, 'DELETE', '/api/organizations/{id}/members/{member_id}', { params: { id, member_id: membershipId } })).status).toBe(
      200,
    );
    expect((await events(owner, id, 'member.revoked'))[0]?.subject).toEqual({ type: 'membership', id: membershipId, name: bob.email });
  });

  it('names custom roles (in a change too) and groups by their current names, and renames old → new', async () => {
    const { owner, id } = await ownedOrganization(mailbox);
    const role = await asBrowser(owner.browser, 'POST', '/api/organizations/{id}/roles', {
      params: { id },
      body: { name: 'Support', permissions: ['groups.manage'] },
    });
    const roleId = ((await role.json()) as { id: string }).id;
    const cy = await person(mailbox, 'cy');
    const membershipId = await joinAs(id, cy.userId, 'member');
    expect((await patchMember(owner, id, membershipId, { role: roleId })).status).toBe(200);
    await asBrowser(owner.browser, 'POST', '/api/organizations/{id}/groups', { params: { id }, body: { name: 'Front desk' } });
    expect(
      (await asBrowser(owner.browser, 'PATCH', '/api/organizations/{id}', { params: { id }, body: { name: 'Acme Two', slug: 'acme-two-names' } })).status,
    ).toBe(200);

    expect((await events(owner, id, 'role.created'))[0]?.subject).toEqual({ type: 'role', id: roleId, name: 'Support' });
    expect((await events(owner, id, 'member.updated'))[0]?.changes).toEqual([{ field: 'role', from: 'member', to: 'Support' }]);
    expect((await events(owner, id, 'group.created'))[0]?.subject?.name).toBe('Front desk');
    const [renamed] = await events(owner, id, 'organization.updated');
    expect(renamed?.subject?.name).toBe('Acme Two');
    expect(renamed?.changes).toEqual([
      { field: 'name', from: 'Acme', to: 'Acme Two' },
      { field: 'slug', from: expect.any(String), to: 'acme-two-names' },
    ]);
    // Events that change nothing field by field carry no `changes`.
    expect((await events(owner, id, 'role.created'))[0]).not.toHaveProperty('changes');
  });

  it('names invited addresses only to readers who manage invitations', async () => {
    const { owner, id } = await ownedOrganization(mailbox);
    const invitee = `invitee.${Date.now()}@example.test`;
    await invite(owner, id, invitee, 'member', mailbox);
    expect((await events(owner, id, 'invitation.created'))[0]?.subject?.name).toBe(invitee);
    const reader = await person(mailbox, 'reader');
    await joinAs(id, reader.userId, 'member');
    const seen = (await events(reader, id, 'invitation.created'))[0];
    expect(seen?.subject).toEqual({ type: 'invitation', id: expect.any(String), name: null });
    expect(JSON.stringify(seen)).not.toContain(invitee);
  });
});

describe("the developer's own activity", () => {
  it('names their API key', async () => {
    const dev = await person(mailbox, 'dev');
    const created = await asBrowser(dev.browser, 'POST', '/api/developer/api-keys', { body: { name: 'CI key', scopes: ['identity.developer.read'] } });
    expect(created.status).toBe(201);
    const response = await asBrowser(dev.browser, 'GET', '/api/developer/audit-events');
    const [event] = ((await response.json()) as { audit_events: { action: string; subject_name: string | null }[] }).audit_events;
    expect(event).toMatchObject({ action: 'api_key.created', subject_name: 'CI key' });
  });
});
