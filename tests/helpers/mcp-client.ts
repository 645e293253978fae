/**
 * The MCP SDK's own client against /mcp served by a real HTTP server on loopback. The service's
 * public name (BASE_URL, http://localhost:3000) resolves to that server, as DNS would send a client
 * there: URLs keep the issuer's origin, the bytes travel over a real socket.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { serveThroughRoutes } from './https-server';
import { ORIGIN } from './http';
import { approve, authorizationParams, CookieJar, exchangeCode, pkce, REDIRECT, registerNativeClient } from './oauth';
import type { Person } from './organizations';

export const MCP_URL = new URL(`${ORIGIN}/mcp`);

export async function startLoopbackServer() {
  const server: Server = createServer((req, res) => void serveThroughRoutes(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const fetchVia: FetchLike = (url, init) => fetch(String(url).replace(ORIGIN, address), init);
  return { fetch: fetchVia, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/**
 * An agent's OAuth state, in memory: what the SDK's auth() asks an application to keep (registration,
 * code verifier, tokens). `authorizationUrl` is where the agent would send its person's browser.
 */
export class AgentOAuth implements OAuthClientProvider {
  authorizationUrl: URL | null = null;
  private information: OAuthClientInformationMixed | undefined;
  private saved: OAuthTokens | undefined;
  private verifier = '';

  constructor(clientId?: string) {
    if (clientId) this.information = { client_id: clientId };
  }

  get redirectUrl() {
    return REDIRECT;
  }
  /** RFC 7591 metadata our registration accepts: a public native client with PKCE and a loopback redirect. */
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'MCP test agent',
      redirect_uris: [REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      application_type: 'native',
    } as OAuthClientMetadata;
  }
  clientInformation() {
    return this.information;
  }
  saveClientInformation(information: OAuthClientInformationMixed) {
    this.information = information;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

export function mcpTransport(fetchVia: FetchLike, credential: { oauth: AgentOAuth } | { bearer: string }) {
  return new StreamableHTTPClientTransport(MCP_URL, {
    fetch: fetchVia,
    ...('oauth' in credential ? { authProvider: credential.oauth } : { requestInit: { headers: { authorization: `Bearer ${credential.bearer}` } } }),
  });
}

export async function mcpClient(transport: StreamableHTTPClientTransport): Promise<Client> {
  const client = new Client({ name: 'identity-service tests', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

/**
 * A stock MCP client's first contact: 401, then discovery, registration (the SDK's own), the
 * authorization URL, which the person approves in their browser; then a connected client.
 */
export async function agentAuthorizedBy(fetchVia: FetchLike, owner: Person): Promise<{ client: Client; oauth: AgentOAuth }> {
  const oauth = new AgentOAuth();
  const first = mcpTransport(fetchVia, { oauth });
  const refusal = await mcpClient(first).then(
    () => null,
    (error: unknown) => error,
  );
  if (!(refusal instanceof UnauthorizedError)) throw new Error(`the first contact should be refused with 401, got ${String(refusal)}`);
  const params = Object.fromEntries(oauth.authorizationUrl!.searchParams);
  const callback = await approve(new CookieJar(owner.browser), owner.browser, params);
  await first.finishAuth(callback.searchParams.get('code')!);
  return { client: await mcpClient(mcpTransport(fetchVia, { oauth })), oauth };
}

/** A token for /mcp through the real flow, for a given client and scope (no SDK: the test picks the scope). */
export async function mcpToken(owner: Person, scope: string, clientId?: string): Promise<string> {
  const client = clientId ?? (await registerNativeClient());
  const { verifier, challenge } = pkce();
  const callback = await approve(
    new CookieJar(owner.browser),
    owner.browser,
    authorizationParams(client, challenge, { scope, resource: MCP_URL.href, prompt: 'consent' }),
  );
  const tokens = (await (await exchangeCode(client, callback, verifier, { resource: MCP_URL.href })).json()) as { access_token: string };
  return tokens.access_token;
}

type ToolResult = Awaited<ReturnType<Client['callTool']>>;

/** A tool result's structured output (its output schema's shape). */
export const structuredOf = <T>(result: ToolResult) => result.structuredContent as T;

/** A tool result's text (a tool error's message). */
export const textOf = (result: ToolResult) => (result.content as { type: string; text: string }[]).map((c) => c.text).join('\n');
