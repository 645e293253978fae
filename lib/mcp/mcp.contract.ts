/**
 * The MCP endpoint (an extension of the spec, which names the resource {base_url}/mcp and its
 * metadata): a delegated operation, because the MCP SDK's transport speaks its own protocol
 * (JSON-RPC) and authenticates the token itself (token.ts: audience {base_url}/mcp only).
 */
import { z } from 'zod';
import type { EventType } from '@/lib/contract/events';
import { delegatedContract } from '@/lib/contract/wire';

/**
 * The events a /mcp request may write to the outbox (create_api_key's, the portal's own event). The
 * operation declares them, and every tool runs inside that declaration (server.ts), so an event a
 * tool writes without it being listed here is refused, as on any other operation.
 */
export const MCP_EMITS: readonly EventType[] = ['identity.api_key.created'];

export const mcp = delegatedContract({
  id: 'mcp',
  method: 'POST',
  path: '/mcp',
  tag: 'MCP',
  summary:
    'Model Context Protocol (Streamable HTTP, stateless, JSON answers; a notification is answered 202): tools whoami, list_applications, list_webhook_deliveries, send_test_event, create_api_key. Only OAuth access tokens issued for resource={base_url}/mcp; otherwise 401 with WWW-Authenticate naming /.well-known/oauth-protected-resource/mcp',
  extension: true,
  auth: { kind: 'bearer', accepts: ['oauth'], scopes: [] },
  // MCP servers must refuse foreign Origins (DNS rebinding): a present foreign Origin is 403.
  origin: 'if-present',
  idempotency: 'none',
  // Before the token is looked up: a flood of bad tokens costs one counter each.
  rateLimit: 'mcp_requests',
  successStatus: 200,
  errorStatuses: [401, 406, 415, 429],
  emits: MCP_EMITS,
  response: z.object({ jsonrpc: z.literal('2.0'), id: z.union([z.string(), z.number()]), result: z.record(z.string(), z.unknown()).optional() }),
});
