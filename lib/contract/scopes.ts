/** The spec's scope list (Authentication section). */
export const SCOPES = [
  'identity.profile.read',
  'identity.email.read',
  'identity.profile.write',
  'identity.organization.read',
  'identity.organization.members.read',
  'identity.privacy.export',
  'identity.developer.read',
  'identity.applications.manage',
  'identity.webhooks.test',
  'identity.api_keys.create',
  'offline_access',
] as const;

export type Scope = (typeof SCOPES)[number];

/** The scopes an API key may carry (issue #12): a developer's own surface, nothing about end users. */
export const API_KEY_SCOPES = ['identity.developer.read', 'identity.applications.manage', 'identity.webhooks.test'] as const satisfies readonly Scope[];
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/**
 * API keys an application creates for the person (the MCP create_api_key tool, under the scope
 * identity.api_keys.create): they last this many days by default and at most (a longer expiry is
 * refused), and they end with the consent they were created under (docs/decisions.md, Agent-created
 * API keys). The consent page states the number.
 */
export const AGENT_API_KEY_MAX_DAYS = 30;
