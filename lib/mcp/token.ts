/**
 * Who calls /mcp: only an OAuth access token whose audience is exactly {base_url}/mcp (a token
 * requested with resource={base_url}/mcp). The API's own tokens, tokens for another resource and API
 * keys are refused: each credential works only where it was issued for (RFC 8707). A refusal is 401
 * with the RFC 9728 challenge that names this resource's metadata, so an MCP client can discover the
 * authorization server and start the flow on its own.
 */
import type { Actor } from '@/lib/contract/actor';
import { bearerToken } from '@/lib/contract/authorization-header';
import { getConfig } from '@/lib/config';
import { mcpResource, resolveMcpAccessToken } from '@/lib/oidc';
import { CHALLENGE_SCOPES } from './scopes';

export type McpActor = Extract<Actor, { kind: 'bearer' }>;

export function resourceMetadataUrl(baseUrl = getConfig().baseUrl): string {
  return `${baseUrl}/.well-known/oauth-protected-resource/mcp`;
}

/**
 * RFC 6750 §3 / RFC 9728 §5.1. `scope` (MCP authorization, scope selection) is what a client should
 * ask for when it has nothing: scopes every client, even a self-registered one, can obtain for /mcp.
 */
export function challenge(error?: 'invalid_token'): string {
  const parts = [`Bearer resource_metadata="${resourceMetadataUrl()}"`, `scope="${CHALLENGE_SCOPES.join(' ')}"`];
  if (error) parts.push(`error="${error}"`);
  return parts.join(', ');
}

function refusal(description: string, presented: boolean): Response {
  // The body speaks the OAuth error format, like the other delegated (protocol) surfaces.
  return new Response(JSON.stringify({ error: 'invalid_token', error_description: description }), {
    status: 401,
    headers: { 'content-type': 'application/json', 'www-authenticate': challenge(presented ? 'invalid_token' : undefined) },
  });
}

export async function authenticateMcp(request: Request, now: Date): Promise<{ actor: McpActor } | { refusal: Response }> {
  const header = request.headers.get('authorization');
  if (header === null) return { refusal: refusal(`An OAuth access token for ${mcpResource(getConfig().baseUrl)} is required.`, false) };
  const token = bearerToken(header);
  if (!token) return { refusal: refusal('The Authorization header must be "Bearer <access token>".', true) };
  if (token.startsWith('idk_')) return { refusal: refusal('API keys are not accepted here: authorize an MCP client with OAuth.', true) };
  const actor = await resolveMcpAccessToken(token, now);
  if (!actor) return { refusal: refusal(`The access token is invalid, expired, revoked, or not issued for ${mcpResource(getConfig().baseUrl)}.`, true) };
  return { actor };
}
