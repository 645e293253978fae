/**
 * The MCP endpoint (Streamable HTTP, stateless): each POST gets its own server and transport, built
 * for the caller the token names, and a JSON answer (no SSE stream, no Mcp-Session-Id). Any instance
 * behind a load balancer can serve any request; nothing is kept between requests
 * (docs/decisions.md, "MCP server").
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { withDeclaredEvents } from '@/lib/events';
import { MCP_EMITS } from './mcp.contract';
import { runTool, type ToolContext } from './tool';
import { authenticateMcp, type McpActor } from './token';
import { MCP_TOOLS } from './tools';

const INSTRUCTIONS =
  'Tools over the developer portal of the person who authorized this client: who they are, their applications, webhook deliveries, test events, and API keys for the developer API. Each tool needs one OAuth scope and says which when the token lacks it.';

function serverFor(actor: McpActor, context: ToolContext): McpServer {
  const server = new McpServer({ name: 'identity-service', version: '1.0.0' }, { instructions: INSTRUCTIONS });
  for (const tool of MCP_TOOLS) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: `${tool.description} Needs the scope ${tool.scope}.`,
        inputSchema: tool.input,
        outputSchema: tool.output,
        annotations: { readOnlyHint: tool.readOnly, destructiveHint: false, openWorldHint: false },
      },
      (args: unknown) => withDeclaredEvents('mcp', MCP_EMITS, () => runTool(tool, actor, args, context)),
    );
  }
  return server;
}

export async function handleMcpRequest(request: Request, context: ToolContext): Promise<Response> {
  // Only POST is declared (a GET stream would have nothing to carry without sessions: 405 from the edge).
  if (request.method === 'OPTIONS') return new Response(null, { status: 204, headers: { Allow: 'POST, OPTIONS' } });
  const authenticated = await authenticateMcp(request, context.now);
  if ('refusal' in authenticated) return authenticated.refusal;
  const server = serverFor(authenticated.actor, context);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    return await transport.handleRequest(request);
  } finally {
    // The JSON answer is complete by now; the per-request server has nothing left to do.
    await server.close();
  }
}
