/**
 * The MCP endpoint in the registry (an extension of the spec, which names the resource {base_url}/mcp
 * and its metadata): a delegated operation, because the MCP SDK's transport speaks its own protocol
 * (JSON-RPC) and authenticates the token itself (token.ts: audience {base_url}/mcp only).
 */
import { z } from 'zod';
import { defineDelegated, type AnyOperation } from '@/lib/contract/operation';
import { MCP_EMITS } from './events';

export const mcpOperations: AnyOperation[] = [
  defineDelegated({
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
    // Loaded on first use: the registry is imported everywhere, the SDK only where /mcp is served.
    webHandler: async () => (await import('./server')).handleMcpRequest,
  }),
];
