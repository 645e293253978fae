/**
 * API keys an agent creates through /mcp (create_api_key) end to end: a stock MCP client registers
 * itself, the person consents in their browser, the agent creates a key; then the key's terms are
 * checked from outside: bound to the consent (revoked with it, whichever way the grant ends), a
 * bounded expiry, only scopes the agent's client could be granted, and marked as the agent's in the
 * portal, the audit log and the events (docs/decisions.md, Agent-created API keys).
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db';
import { apiKeys, auditEvents, oidcModels, outboxEvents } from '@/lib/db/schema';
import { approveApplicationScopes } from '@/lib/developer';
import { newClient, useMailbox } from '@/tests/helpers/accounts';
import { createApplication } from '@/tests/helpers/applications';
import { call, operation } from '@/tests/helpers/http';
import { agentAuthorizedBy, mcpClient, mcpToken, mcpTransport, startLoopbackServer, structuredOf, textOf } from '@/tests/helpers/mcp-client';
import { asBrowser, person, type Person } from '@/tests/helpers/organizations';

// Grants that outlive the keys' 30-day maximum (the default is 30 days too), so that rule shows on its own.
const mailbox = useMailbox({ REFRESH_TOKEN_TTL_SECONDS: String(90 * 24 * 60 * 60) });
let loopback: Awaited<ReturnType<typeof startLoopbackServer>>;
beforeAll(async () => {
  loopback = await startLoopbackServer();
});
afterAll(() => loopback.close());

const DAY_MS = 24 * 60 * 60 * 1000;

interface Created {
  id: string;
  api_key: string;
  scopes: string[];
  created_at: string;
  expires_at: string | null;
}

interface Listed {
  id: string;
  status: string;
  expires_at: string | null;
  created_by: { kind: string; client_id: string | null; grant_id: string | null };
}

type Agent = Awaited<ReturnType<typeof agentAuthorizedBy>>['client'];

const createKey = (agent: Agent, args: Record<string, unknown>) => agent.callTool({ name: 'create_api_key', arguments: { name: 'Agent key', ...args } });

async function createdKey(agent: Agent, args: Record<string, unknown>): Promise<Created> {
  const result = await createKey(agent, args);
  if (result.isError) throw new Error(`create_api_key failed: ${textOf(result)}`);
  return structuredOf<Created>(result);
}

const withKey = (key: string) =>
  call(operation('GET', '/api/v1/developer/api-keys'), { headers: { authorization: `Bearer ${key}`, 'x-forwarded-for': newClient() } });

async function portalKeys(owner: Person): Promise<Listed[]> {
  return ((await (await asBrowser(owner.browser, 'GET', '/api/developer/api-keys')).json()) as { api_keys: Listed[] }).api_keys;
}

async function consentOf(owner: Person, clientId: string): Promise<string> {
  const { consents } = (await (await asBrowser(owner.browser, 'GET', '/api/auth/consents')).json()) as { consents: { grant_id: string; client_id: string }[] };
  return consents.find((c) => c.client_id === clientId)!.grant_id;
}

async function keysOf(owner: Person) {
  return (await getDb()).select().from(apiKeys).where(eq(apiKeys.userId, owner.userId));
}

async function auditOf(keyId: string) {
  const rows = await (await getDb()).select().from(auditEvents).where(eq(auditEvents.subjectId, keyId)).orderBy(auditEvents.createdAt);
  return rows.map((row) => ({ action: row.action, actorType: row.actorType, actorId: row.actorId, data: row.data }));
}

async function eventsOf(owner: Person) {
  const rows = await (await getDb()).select().from(outboxEvents).where(eq(outboxEvents.userId, owner.userId)).orderBy(outboxEvents.createdAt);
  return rows.filter((row) => row.type.startsWith('identity.api_key.')).map((row) => ({ type: row.type, payload: row.payload }));
}

describe('API keys an agent creates through /mcp', () => {
  it('end with the consent: withdrawing it revokes the key (401), and the portal, the audit log and the events say so', async () => {
    const owner = await person(mailbox, 'agent-key-consent');
    const own = (await (
      await asBrowser(owner.browser, 'POST', '/api/developer/api-keys', { body: { name: 'Mine', scopes: ['identity.developer.read'] } })
    ).json()) as Created;
    const { client: agent, oauth } = await agentAuthorizedBy(loopback.fetch, owner);
    const created = await createdKey(agent, { scopes: ['identity.developer.read'] });
    expect((await withKey(created.api_key)).status).toBe(200);

    const clientId = oauth.clientInformation()!.client_id;
    const grantId = await consentOf(owner, clientId);
    const agentMark = { kind: 'application', client_id: clientId, grant_id: grantId };
    expect(await portalKeys(owner)).toEqual([
      expect.objectContaining({ id: created.id, status: 'active', created_by: agentMark }),
      expect.objectContaining({ id: own.id, status: 'active', created_by: { kind: 'person', client_id: null, grant_id: null } }),
    ]);

    const revoked = await asBrowser(owner.browser, 'POST', '/api/auth/consents/revoke', { body: { grant_id: grantId } });
    expect(revoked.status).toBe(200);
    expect((await withKey(created.api_key)).status).toBe(401);
    // The person's own key is not the consent's: it keeps working.
    expect((await withKey(own.api_key)).status).toBe(200);
    expect(await portalKeys(owner)).toEqual([
      expect.objectContaining({ id: created.id, status: 'revoked', created_by: agentMark }),
      expect.objectContaining({ id: own.id, status: 'active' }),
    ]);
    expect((await keysOf(owner)).find((k) => k.id === created.id)!.revokedAt).not.toBeNull();

    expect(await auditOf(created.id)).toEqual([
      {
        action: 'api_key.created',
        actorType: 'bearer',
        actorId: owner.userId,
        data: { scopes: 'identity.developer.read', client_id: clientId, grant_id: grantId },
      },
      { action: 'api_key.revoked', actorType: 'session', actorId: owner.userId, data: { scopes: 'identity.developer.read', reason: 'consent_revoked' } },
    ]);
    const events = (await eventsOf(owner)).filter((e) => e.payload.api_key_id === created.id);
    expect(events).toEqual([
      { type: 'identity.api_key.created', payload: { api_key_id: created.id, scopes: 'identity.developer.read', client_id: clientId, grant_id: grantId } },
      { type: 'identity.api_key.revoked', payload: { api_key_id: created.id, scopes: 'identity.developer.read', reason: 'consent_revoked' } },
    ]);
  });

  it("stop authenticating whenever the grant ends, here by revoking the agent's token (the whole grant goes)", async () => {
    const owner = await person(mailbox, 'agent-key-token');
    const { client: agent, oauth } = await agentAuthorizedBy(loopback.fetch, owner);
    const created = await createdKey(agent, { scopes: ['identity.developer.read'] });
    expect((await withKey(created.api_key)).status).toBe(200);

    const revocation = await call(operation('POST', '/oauth/revoke'), {
      body: { token: oauth.tokens()!.access_token, client_id: oauth.clientInformation()!.client_id },
      headers: { 'idempotency-key': 'agent-key-token-revoke' },
    });
    expect(revocation.status).toBe(200);
    expect((await withKey(created.api_key)).status).toBe(401);
    expect((await portalKeys(owner)).map((k) => [k.id, k.status])).toEqual([[created.id, 'revoked']]);
  });

  it('expire after 30 days by default and at most: a later expiry is refused and nothing is stored', async () => {
    const owner = await person(mailbox, 'agent-key-expiry');
    const { client: agent } = await agentAuthorizedBy(loopback.fetch, owner);

    const standard = await createdKey(agent, { scopes: ['identity.developer.read'] });
    expect(new Date(standard.expires_at!).getTime() - new Date(standard.created_at).getTime()).toBe(30 * DAY_MS);

    const tooLong = await createKey(agent, { scopes: ['identity.developer.read'], expires_at: new Date(Date.now() + 31 * DAY_MS).toISOString() });
    expect(tooLong.isError).toBe(true);
    expect(textOf(tooLong)).toBe('invalid_request: An API key created by an application lasts at most 30 days.');

    const shorter = new Date(Date.now() + 10 * DAY_MS).toISOString();
    expect((await createdKey(agent, { scopes: ['identity.developer.read'], expires_at: shorter })).expires_at).toBe(shorter);
    // The refused request stored nothing: the two keys are the standard and the shorter one.
    expect(await keysOf(owner)).toHaveLength(2);
  });

  it('never expire after the grant they were created under', async () => {
    const owner = await person(mailbox, 'agent-key-grant-end');
    const { client: agent, oauth } = await agentAuthorizedBy(loopback.fetch, owner);
    const grantId = await consentOf(owner, oauth.clientInformation()!.client_id);
    const grantEnds = new Date(Math.floor(Date.now() / 1000) * 1000 + 5 * DAY_MS);
    await (
      await getDb()
    )
      .update(oidcModels)
      .set({ expiresAt: grantEnds })
      .where(and(eq(oidcModels.model, 'Grant'), eq(oidcModels.id, grantId)));

    expect((await createdKey(agent, { scopes: ['identity.developer.read'] })).expires_at).toBe(grantEnds.toISOString());
    const beyond = await createKey(agent, { scopes: ['identity.developer.read'], expires_at: new Date(grantEnds.getTime() + DAY_MS).toISOString() });
    expect(textOf(beyond)).toBe(
      `invalid_request: An API key created by an application lasts at most until its authorization ends (${grantEnds.toISOString()}).`,
    );
  });

  it("carry only scopes the agent's client could be granted: never identity.applications.manage from a self-registered agent", async () => {
    const owner = await person(mailbox, 'agent-key-scopes');
    const { client: agent } = await agentAuthorizedBy(loopback.fetch, owner);
    const refused = await createKey(agent, { scopes: ['identity.developer.read', 'identity.applications.manage'] });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toBe(
      'forbidden: This application cannot be granted identity.applications.manage itself, so its API keys cannot carry it: it may give its keys only identity.developer.read, identity.webhooks.test.',
    );
    expect(await keysOf(owner)).toEqual([]);
    expect(await createdKey(agent, { scopes: ['identity.developer.read', 'identity.webhooks.test'] })).toMatchObject({
      scopes: ['identity.developer.read', 'identity.webhooks.test'],
    });
  });

  it('carry identity.applications.manage from a portal application only once the operator approved that scope for it', async () => {
    const owner = await person(mailbox, 'agent-key-portal');
    const application = await createApplication(owner, {
      client_type: 'public',
      scopes: ['identity.api_keys.create', 'identity.developer.read', 'identity.applications.manage'],
    });
    await approveApplicationScopes(application.client_id, ['identity.api_keys.create', 'identity.developer.read'], new Date());
    const agent = await mcpClient(mcpTransport(loopback.fetch, { bearer: await mcpToken(owner, 'identity.api_keys.create', application.client_id) }));
    const refused = await createKey(agent, { scopes: ['identity.applications.manage'] });
    expect(textOf(refused)).toMatch(/^forbidden: This application cannot be granted identity.applications.manage itself/);

    await approveApplicationScopes(application.client_id, ['identity.applications.manage'], new Date());
    expect(await createdKey(agent, { scopes: ['identity.applications.manage'] })).toMatchObject({ scopes: ['identity.applications.manage'] });
  });
});
