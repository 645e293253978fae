/**
 * The OAuth scope catalogue: every scope a client may ask for and the claims it releases, one table
 * used by the provider configuration, the consent screen, the docs and the wire contracts that name
 * scopes (plain data, so browser code may import it). `profile` and `email` are aliases so
 * off-the-shelf OIDC clients work.
 */
import { AGENT_API_KEY_MAX_DAYS } from './scopes';

export interface ScopeDefinition {
  scope: string;
  /** Plain words for the consent screen: what the application could do, so a person can judge it. */
  description: string;
  claims: string[];
  aliasOf?: string;
  /**
   * The ceiling for clients registered through POST /oauth/register (ASVS V10.4.11): `allowed`, only
   * together with the resource {base_url}/mcp (`mcp_only`, the spec's agent flow), or `portal_only`
   * (applications registered in the developer portal, which have an owner).
   */
  selfRegistration: 'allowed' | 'mcp_only' | 'portal_only';
}

export const SCOPE_TABLE: readonly ScopeDefinition[] = [
  {
    scope: 'openid',
    description: 'Know which account on this service is yours (a fixed identifier, nothing else)',
    claims: ['sub'],
    selfRegistration: 'allowed',
  },
  {
    scope: 'offline_access',
    description: 'Keep this access while you are not using the application, until you withdraw it in your account',
    claims: [],
    selfRegistration: 'allowed',
  },
  { scope: 'identity.profile.read', description: 'See your name, language and time zone', claims: ['name', 'locale', 'zoneinfo'], selfRegistration: 'allowed' },
  {
    scope: 'profile',
    description: 'See your name, language and time zone',
    claims: ['name', 'locale', 'zoneinfo'],
    aliasOf: 'identity.profile.read',
    selfRegistration: 'allowed',
  },
  {
    scope: 'identity.email.read',
    description: 'See your e-mail address and whether it is confirmed',
    claims: ['email', 'email_verified'],
    selfRegistration: 'allowed',
  },
  {
    scope: 'email',
    description: 'See your e-mail address and whether it is confirmed',
    claims: ['email', 'email_verified'],
    aliasOf: 'identity.email.read',
    selfRegistration: 'allowed',
  },
  { scope: 'identity.profile.write', description: 'Change your name, language and time zone', claims: [], selfRegistration: 'portal_only' },
  {
    scope: 'identity.organization.read',
    description: 'See which organizations you belong to and your role in each',
    claims: [],
    selfRegistration: 'portal_only',
  },
  {
    scope: 'identity.organization.members.read',
    description: 'See the people in your organizations: their names and e-mail addresses',
    claims: [],
    selfRegistration: 'portal_only',
  },
  {
    scope: 'identity.privacy.export',
    description: 'Download a copy of all the personal data this service keeps about you',
    claims: [],
    selfRegistration: 'portal_only',
  },
  // An agent (a self-registered MCP client) may read the developer portal and send test events through
  // /mcp, and so may put these two scopes on API keys it creates; registering applications stays with
  // applications the operator reviewed (docs/decisions.md, Agent-created API keys).
  {
    scope: 'identity.developer.read',
    description: 'See the applications, API keys and webhooks you manage (not their secrets)',
    claims: [],
    selfRegistration: 'mcp_only',
  },
  { scope: 'identity.applications.manage', description: 'Register and change applications in your name', claims: [], selfRegistration: 'portal_only' },
  { scope: 'identity.webhooks.test', description: 'Send test events to the webhooks you manage', claims: [], selfRegistration: 'mcp_only' },
  {
    scope: 'identity.api_keys.create',
    // The consent page replaces this with the client's own terms (agent-api-keys.ts: its scopes).
    description: `Create API keys on your account that expire after at most ${AGENT_API_KEY_MAX_DAYS} days, limited to what this application may do itself; they are revoked when you disconnect the application`,
    claims: [],
    selfRegistration: 'mcp_only',
  },
];
