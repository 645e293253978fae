/**
 * /mcp end to end: the MCP SDK's client, over a real loopback HTTP server, with a token from the real
 * OAuth flow (dynamic registration, authorization with resource={base_url}/mcp, consent approved by a
 * signed-in person, code exchange), driven by the SDK's own auth helpers. Only the browser's part
 * (following the authorization URL, approving on the consent page) is the test's (tests/helpers/oauth.ts).
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db';
import { auditEvents } from '@/lib/db/schema';
import { newClient, useMailbox } from '@/tests/helpers/accounts';
import { RATE_LIMIT_BUCKETS } from '@/lib/contract/rate-limits';
import { call, operation, ORIGIN } from '@/tests/helpers/http';
import { agentAuthorizedBy, mcpClient, mcpToken, mcpTransport, startLoopbackServer, structuredOf, textOf } from '@/tests/helpers/mcp-client';
import { mintAccessToken, registerPortalClient } from '@/tests/helpers/oauth';
import { createApplication } from '@/tests/helpers/applications';
import { person } from '@/tests/helpers/organizations';
import { LOOPBACK_ENV, subscribe } from '@/tests/helpers/webhooks';

// Webhook subscriptions to a loopback address (the test event is only queued: no receiver needed).
const mailbox = useMailbox(LOOPBACK_ENV);
let loopback: Awaited<ReturnType<typeof startLoopbackServer>>;
beforeAll(async () => {
  loopback = await startLoopbackServer();
});
afterAll(() => loopback.close());

const MCP_RESOURCE = `${ORIGIN}/mcp`;
const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

const rawPost = (headers: Record<string, string>) =>
  loopback.fetch(MCP_RESOURCE, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(INITIALIZE),
  });

describe('/mcp authentication', () => {
  // ASVS V8.3.1; RFC 9728 §5.1
  it('answers 401 with the protected-resource challenge without a token, with an /api/v1 token and with an API key', async () => {
    const owner = await person(mailbox, 'mcp-401');
    const apiToken = (await mintAccessToken(owner.userId, 'identity.profile.read identity.developer.read')).value;
    const { client } = await agentAuthorizedBy(loopback.fetch, owner);
    const key = structuredOf<{ api_key: string }>(
      await client.callTool({ name: 'create_api_key', arguments: { name: 'agent', scopes: ['identity.developer.read'] } }),
    ).api_key;
    const cases: [string, Record<string, string>][] = [
      ['no token', {}],
      ['a token for /api/v1', { authorization: `Bearer ${apiToken}` }],
      ['an API key', { authorization: `Bearer ${key}` }],
      ['a forged token', { authorization: 'Bearer forged' }],
    ];
    for (const [name, headers] of cases) {
      const response = await rawPost({ ...headers, 'x-request-id': 'mcp-401-check' });
      expect(response.status, name).toBe(401);
      expect(response.headers.get('www-authenticate'), name).toMatch(
        new RegExp(
          `^Bearer resource_metadata="${ORIGIN}/\\.well-known/oauth-protected-resource/mcp", scope="identity\\.profile\\.read identity\\.api_keys\\.create"`,
        ),
      );
      expect(response.headers.get('x-request-id'), name).toBe('mcp-401-check');
    }
    // The same /api/v1 token and API key do work where they belong.
    for (const credential of [apiToken, key]) {
      const listed = await call(operation('GET', '/api/v1/developer/api-keys'), {
        headers: { authorization: `Bearer ${credential}`, 'x-forwarded-for': newClient() },
      });
      expect(listed.status).toBe(200);
    }
  });

  // ASVS V2.4.1
  it('is rate limited per client before any token is looked up', async () => {
    const client = newClient();
    const statuses: number[] = [];
    for (let i = 0; i <= RATE_LIMIT_BUCKETS.mcp_requests.limit; i++) {
      statuses.push(
        (await call(operation('POST', '/mcp'), { body: INITIALIZE, headers: { authorization: 'Bearer forged', 'x-forwarded-for': client } })).status,
      );
    }
    expect(statuses.slice(0, -1).every((status) => status === 401)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    // Another client is not held back.
    expect(
      (await call(operation('POST', '/mcp'), { body: INITIALIZE, headers: { authorization: 'Bearer forged', 'x-forwarded-for': newClient() } })).status,
    ).toBe(401);
  });

  it('serves POST only (405 for the stream GET, the methods for OPTIONS), refuses a foreign Origin, and carries X-Request-ID on success', async () => {
    const owner = await person(mailbox, 'mcp-edge');
    const token = await mcpToken(owner, 'identity.profile.read');
    const stream = await loopback.fetch(MCP_RESOURCE, { headers: { accept: 'text/event-stream', authorization: `Bearer ${token}` } });
    expect(stream.status).toBe(405);
    expect(stream.headers.get('allow')).toBe('POST');
    expect((await rawPost({ authorization: `Bearer ${token}`, origin: 'https://evil.test' })).status).toBe(403);
    const options = await loopback.fetch(MCP_RESOURCE, { method: 'OPTIONS' });
    expect([options.status, options.headers.get('allow'), options.headers.get('x-request-id')]).toEqual([204, 'POST, OPTIONS', expect.any(String)]);
    const ok = await rawPost({ authorization: `Bearer ${token}`, 'x-request-id': 'mcp-ok-1' });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('x-request-id')).toBe('mcp-ok-1');
    expect(ok.headers.get('mcp-session-id')).toBeNull();
    expect(((await ok.json()) as { result: { serverInfo: { name: string } } }).result.serverInfo.name).toBe('identity-service');
  });

  it('refuses a token for /mcp on the API (the mirror rule)', async () => {
    const owner = await person(mailbox, 'mcp-mirror');
    const token = await mcpToken(owner, 'identity.profile.read');
    const response = await call(operation('GET', '/api/v1/me'), { headers: { authorization: `Bearer ${token}` } });
    expect(response.status).toBe(401);
  });
});

describe('/mcp tools', () => {
  it('lists the tools with their input schemas; whoami names the person (e-mail only with identity.email.read)', async () => {
    const owner = await person(mailbox, 'mcp-tools');
    const { client } = await agentAuthorizedBy(loopback.fetch, owner);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['whoami', 'create_api_key']));
    expect(tools.find((t) => t.name === 'create_api_key')!.inputSchema.required).toEqual(['name', 'scopes']);

    const me = structuredOf<{ id: string; email?: string; scopes: string[] }>(await client.callTool({ name: 'whoami', arguments: {} }));
    expect(me.id).toBe(owner.userId);
    expect(me.email).toBeUndefined();
    expect(me.scopes.sort()).toEqual(['identity.api_keys.create', 'identity.profile.read']);

    const withEmail = await mcpClient(mcpTransport(loopback.fetch, { bearer: await mcpToken(owner, 'identity.profile.read identity.email.read') }));
    expect(structuredOf<{ email: string }>(await withEmail.callTool({ name: 'whoami', arguments: {} })).email).toBe(owner.email);
  });

  it('create_api_key returns the key once, audits the person as the actor, and the key authenticates the developer API', async () => {
    const owner = await person(mailbox, 'mcp-key');
    const { client } = await agentAuthorizedBy(loopback.fetch, owner);
    const result = await client.callTool({
      name: 'create_api_key',
      arguments: { name: 'Deploy bot', scopes: ['identity.developer.read', 'identity.webhooks.test'] },
    });
    expect(result.isError).toBeFalsy();
    const created = structuredOf<{ id: string; api_key: string; scopes: string[]; expires_at: string | null }>(result);
    expect(created.api_key).toMatch(/^idk_/);
    expect(created.scopes).toEqual(['identity.developer.read', 'identity.webhooks.test']);

    const listed = await call(operation('GET', '/api/v1/developer/api-keys'), {
      headers: { authorization: `Bearer ${created.api_key}`, 'x-forwarded-for': newClient() },
    });
    expect(listed.status).toBe(200);
    const body = (await listed.json()) as { api_keys: { id: string; name: string }[]; authentication: string };
    expect(body.authentication).toBe('api_key');
    expect(body.api_keys.map((k) => k.name)).toEqual(['Deploy bot']);
    expect(JSON.stringify(body)).not.toContain(created.api_key);

    const audit = await (await getDb()).select().from(auditEvents).where(eq(auditEvents.subjectId, created.id));
    expect(audit.map((e) => ({ action: e.action, actorType: e.actorType, actorId: e.actorId }))).toEqual([
      { action: 'api_key.created', actorType: 'bearer', actorId: owner.userId },
    ]);
    expect(JSON.stringify(audit)).not.toContain(created.api_key);
  });

  it('create_api_key is a tool error naming the scope without identity.api_keys.create, and refuses bad input', async () => {
    const owner = await person(mailbox, 'mcp-noscope');
    const client = await mcpClient(mcpTransport(loopback.fetch, { bearer: await mcpToken(owner, 'identity.profile.read') }));
    const refused = await client.callTool({ name: 'create_api_key', arguments: { name: 'x', scopes: ['identity.developer.read'] } });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain('identity.api_keys.create');

    const { client: allowed } = await agentAuthorizedBy(loopback.fetch, owner);
    const past = await allowed.callTool({
      name: 'create_api_key',
      arguments: { name: 'x', scopes: ['identity.developer.read'], expires_at: '2000-01-01T00:00:00Z' },
    });
    expect(past.isError).toBe(true);
    expect(textOf(past)).toMatch(/^invalid_request: /);
    const unknownScope = await allowed.callTool({ name: 'create_api_key', arguments: { name: 'x', scopes: ['identity.api_keys.create'] } });
    expect(unknownScope.isError).toBe(true);
    const keys = await (await getDb()).query.apiKeys.findMany({ where: (k, { eq: equals }) => equals(k.userId, owner.userId) });
    expect(keys).toEqual([]);
  });
});

describe('/mcp developer tools', () => {
  type Listed<T> = { items: T[]; has_more: boolean; next_cursor: string | null };

  it('list_applications pages like the API and never shows a client secret', async () => {
    const owner = await person(mailbox, 'mcp-apps');
    const older = await createApplication(owner, { name: 'Older' });
    const newer = await createApplication(owner, { name: 'Newer' });
    const client = await mcpClient(mcpTransport(loopback.fetch, { bearer: await mcpToken(owner, 'identity.developer.read', await registerPortalClient()) }));
    const first = await client.callTool({ name: 'list_applications', arguments: { limit: 1 } });
    const page = structuredOf<Listed<{ id: string; client_id: string; status: string }>>(first);
    expect(page.items.map((a) => a.id)).toEqual([newer.id]);
    expect(page.has_more).toBe(true);
    const rest = structuredOf<Listed<{ id: string }>>(await client.callTool({ name: 'list_applications', arguments: { limit: 1, cursor: page.next_cursor } }));
    expect(rest).toMatchObject({ items: [{ id: older.id }], has_more: false, next_cursor: null });
    for (const secret of [older.client_secret, newer.client_secret]) expect(JSON.stringify(first)).not.toContain(secret);
    // A cursor is bound to its tool, as API cursors are to their collection.
    const foreign = await client.callTool({ name: 'list_webhook_deliveries', arguments: { cursor: page.next_cursor } });
    expect(textOf(foreign)).toMatch(/^invalid_pagination: /);
  });

  it("send_test_event queues a delivery that list_webhook_deliveries shows; another owner's webhook is not found", async () => {
    const owner = await person(mailbox, 'mcp-hooks');
    const hook = await subscribe(owner, 'https://127.0.0.1:9/hook');
    const stranger = await subscribe(await person(mailbox, 'mcp-stranger'), 'https://127.0.0.1:9/other');
    const client = await mcpClient(
      mcpTransport(loopback.fetch, { bearer: await mcpToken(owner, 'identity.developer.read identity.webhooks.test', await registerPortalClient()) }),
    );
    const sent = await client.callTool({ name: 'send_test_event', arguments: { webhook_id: hook.id } });
    expect(sent.isError).toBeFalsy();
    const { delivery_id } = structuredOf<{ delivery_id: string }>(sent);
    const log = structuredOf<Listed<Record<string, unknown>>>(await client.callTool({ name: 'list_webhook_deliveries', arguments: { webhook_id: hook.id } }));
    expect(log.items).toEqual([
      expect.objectContaining({ id: delivery_id, webhook_id: hook.id, event_type: 'identity.webhook.test', status: 'queued', attempts: 0 }),
    ]);
    expect(JSON.stringify(log)).not.toContain(hook.secret);
    const theirs = await client.callTool({ name: 'send_test_event', arguments: { webhook_id: stranger.id } });
    expect(theirs.isError).toBe(true);
    expect(textOf(theirs)).toMatch(/^not_found: /);
  });

  it("names the missing scope: a token with only the challenge's scopes cannot read the developer portal", async () => {
    const owner = await person(mailbox, 'mcp-scopes');
    const { client } = await agentAuthorizedBy(loopback.fetch, owner);
    for (const [name, args, scope] of [
      ['list_applications', {}, 'identity.developer.read'],
      ['list_webhook_deliveries', {}, 'identity.developer.read'],
      ['send_test_event', { webhook_id: '00000000-0000-4000-8000-000000000000' }, 'identity.webhooks.test'],
    ] as const) {
      const refused = await client.callTool({ name, arguments: args });
      expect(refused.isError, name).toBe(true);
      expect(textOf(refused), name).toContain(scope);
    }
  });
});
