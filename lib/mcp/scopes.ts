/**
 * The scopes the /mcp tools use; each tool names the one it needs (tools.ts), and a missing one is a
 * tool error naming it. The protected-resource metadata lists every scope a token for /mcp may carry.
 */
export const MCP_SCOPES = [
  'identity.profile.read',
  'identity.email.read',
  'identity.developer.read',
  'identity.webhooks.test',
  'identity.api_keys.create',
] as const;
export type McpScope = (typeof MCP_SCOPES)[number];

/**
 * What the 401 challenge suggests a client ask for (token.ts): who am I, and API keys for the rest.
 * Both are open to self-registered clients (POST /oauth/register) for resource={base_url}/mcp, so a
 * stock MCP client that registers itself gets a token it can use (scopes.test.ts keeps it so).
 */
export const CHALLENGE_SCOPES: readonly McpScope[] = ['identity.profile.read', 'identity.api_keys.create'];
