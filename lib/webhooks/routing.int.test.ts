/**
 * Fan-out from the outbox: an event reaches only its audience. A user's event reaches that user's own
 * subscriptions; an organization's event reaches the owners of the enabled applications actively
 * assigned to it (application and assignment rows are written directly: the applications API has its
 * own tests). Fan-out is idempotent.
 */
import { randomUUID } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db';
import { developerApplications, organizationApplications, outboxEvents, webhookDeliveries } from '@/lib/db/schema';
import { emitEvent } from '@/lib/events';
import { useMailbox } from '@/tests/helpers/accounts';
import { createOrganization, person, type Person } from '@/tests/helpers/organizations';
import { LOOPBACK_ENV, subscribe } from '@/tests/helpers/webhooks';
import { fanOut, fanOutAll } from './dispatch';

const mailbox = useMailbox(LOOPBACK_ENV);
// Never contacted: fan-out makes deliveries, it does not send them.
const ENDPOINT = 'https://localhost:9/hooks';
const MEMBER_ADDED = 'identity.organization.member.added';

async function application(owner: Person, status: 'enabled' | 'disabled' = 'enabled'): Promise<string> {
  const id = randomUUID();
  const now = new Date();
  await (await getDb()).insert(developerApplications).values({
    id,
    userId: owner.userId,
    clientId: `app_${id.slice(0, 8)}`,
    name: 'Test app',
    clientType: 'public',
    redirectUris: ['https://app.example/cb'],
    scopes: ['openid'],
    approvedScopes: ['openid'],
    grantTypes: ['authorization_code'],
    status,
    secretHash: null,
    secretRotatedAt: null,
    createdAt: now,
    updatedAt: now,
    disabledAt: null,
  });
  return id;
}

async function assign(organizationId: string, applicationId: string, status: 'active' | 'disabled' = 'active') {
  const now = new Date();
  await (
    await getDb()
  )
    .insert(organizationApplications)
    .values({ organizationId, applicationId, status, assignedBy: null, createdAt: now, updatedAt: now, disabledAt: null });
}

/** Writes an event as an operation would (in the outbox) and answers its id. */
async function emit(type: Parameters<typeof emitEvent>[1], audience: { userId?: string; organizationId?: string }): Promise<string> {
  const marker = randomUUID();
  await emitEvent(await getDb(), type, { marker }, audience, new Date());
  const rows = await (await getDb()).select().from(outboxEvents).where(eq(outboxEvents.type, type));
  return rows.find((row) => row.payload.marker === marker)!.id;
}

async function recipientsOf(eventId: string): Promise<string[]> {
  const rows = await (await getDb()).select({ webhookId: webhookDeliveries.webhookId }).from(webhookDeliveries).where(eq(webhookDeliveries.eventId, eventId));
  return rows.map((r) => r.webhookId).sort();
}

describe('fan-out', () => {
  it("routes a user's event to that user's subscriptions for that event type only", async () => {
    const ada = await person(mailbox, 'ada');
    const bob = await person(mailbox, 'bob');
    const adaHook = await subscribe(ada, ENDPOINT, ['identity.user.updated']);
    const adaOther = await subscribe(ada, ENDPOINT, ['identity.password.changed']);
    const bobHook = await subscribe(bob, ENDPOINT, ['identity.user.updated']);
    const event = await emit('identity.user.updated', { userId: ada.userId });
    await fanOutAll(new Date());
    expect(await recipientsOf(event)).toEqual([adaHook.id]);
    expect([adaOther.id, bobHook.id]).not.toContain((await recipientsOf(event))[0]);
    const [delivery] = await (await getDb()).select().from(webhookDeliveries).where(eq(webhookDeliveries.eventId, event));
    expect(delivery).toMatchObject({ userId: ada.userId, eventType: 'identity.user.updated', status: 'queued', attempts: 0 });
    expect(delivery!.payload).toEqual({ type: 'identity.user.updated', timestamp: expect.any(String), data: { marker: expect.any(String) } });
  });

  it("routes an organization's event to the owners of enabled applications actively assigned to it, nobody else", async () => {
    const carol = await person(mailbox, 'carol');
    const organizationId = await createOrganization(carol);
    const [assigned, unassigned, revoked, disabledApp] = await Promise.all([
      person(mailbox, 'dev'),
      person(mailbox, 'dev'),
      person(mailbox, 'dev'),
      person(mailbox, 'dev'),
    ]);
    await assign(organizationId, await application(assigned!));
    await application(unassigned!);
    await assign(organizationId, await application(revoked!), 'disabled');
    await assign(organizationId, await application(disabledApp!, 'disabled'));
    const hooks = await Promise.all([assigned, unassigned, revoked, disabledApp, carol].map((p) => subscribe(p!, ENDPOINT, [MEMBER_ADDED])));
    const other = await person(mailbox, 'other');
    const elsewhere = await createOrganization(other);

    const event = await emit(MEMBER_ADDED, { organizationId });
    const foreign = await emit(MEMBER_ADDED, { organizationId: elsewhere });
    await fanOutAll(new Date());
    expect(await recipientsOf(event)).toEqual([hooks[0]!.id]);
    expect(await recipientsOf(foreign)).toEqual([]);
  });

  it('is idempotent: an event fanned out twice makes one delivery per subscription, and it is marked dispatched', async () => {
    const ada = await person(mailbox, 'ada');
    const hook = await subscribe(ada, ENDPOINT, ['identity.user.updated']);
    const event = await emit('identity.user.updated', { userId: ada.userId });
    await fanOutAll(new Date());
    const db = await getDb();
    const [dispatched] = await db.select().from(outboxEvents).where(eq(outboxEvents.id, event));
    expect(dispatched!.dispatchedAt).not.toBeNull();
    expect(await fanOut(new Date())).toBe(0);
    // As if a fan-out had crashed after inserting deliveries but before marking the event.
    await db
      .update(outboxEvents)
      .set({ dispatchedAt: null })
      .where(inArray(outboxEvents.id, [event]));
    await fanOutAll(new Date());
    expect(await recipientsOf(event)).toEqual([hook.id]);
  });
});
