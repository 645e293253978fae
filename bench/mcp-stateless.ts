/**
 * The price of a stateless MCP endpoint (not part of CI): every POST /mcp builds its own McpServer,
 * registers the tools, connects a fresh transport and answers (lib/mcp/server.ts). Measured
 * in-process, without authentication or database (a token with no scope: tools/call stops at the
 * scope check), so the figure is the SDK's share of a request and nothing else.
 *
 *   npx tsx bench/mcp-stateless.ts   (BENCH_ITERATIONS)
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { runTool } from '../lib/mcp/tool';
import { MCP_TOOLS } from '../lib/mcp/tools';
import { percentile } from './support/server';

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 2_000);
const actor = { kind: 'bearer', credential: 'oauth', credentialId: 'bench', userId: 'bench', clientId: null, scopes: [], organizationId: null } as const;
const BODIES = {
  'tools/list': { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
  'tools/call (refused at the scope check)': { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'whoami', arguments: {} } },
};

async function once(body: object): Promise<number> {
  const start = process.hrtime.bigint();
  const server = new McpServer({ name: 'identity-service', version: '1.0.0' });
  for (const tool of MCP_TOOLS) {
    server.registerTool(tool.name, { description: tool.description, inputSchema: tool.input, outputSchema: tool.output }, (args: unknown) =>
      runTool(tool, { ...actor, scopes: [] }, args, { requestId: 'bench', now: new Date() }),
    );
  }
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' };
  const response = await transport.handleRequest(new Request('http://bench/mcp', { method: 'POST', headers, body: JSON.stringify(body) }));
  if (response.status !== 200) throw new Error(`answered ${response.status}`);
  await response.text();
  await server.close();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

async function main() {
  for (const [name, body] of Object.entries(BODIES)) {
    for (let i = 0; i < 200; i++) await once(body);
    const samples: number[] = [];
    for (let i = 0; i < ITERATIONS; i++) samples.push(await once(body));
    samples.sort((a, b) => a - b);
    console.log(`${name}: p50 ${percentile(samples, 50).toFixed(2)} ms, p95 ${percentile(samples, 95).toFixed(2)} ms (${ITERATIONS} requests)`);
  }
}

void main();
