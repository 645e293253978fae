/**
 * Scopes and the claims they release: one table, used by the provider configuration, the consent
 * screen and the docs. `profile` and `email` are aliases so off-the-shelf OIDC clients work.
 */
export interface ScopeDefinition {
  scope: string;
  /** Plain words for the consent screen. */
  description: string;
  claims: string[];
  aliasOf?: string;
}

export const SCOPE_TABLE: readonly ScopeDefinition[] = [
  { scope: 'openid', description: 'Confirm who you are', claims: ['sub'] },
  { scope: 'offline_access', description: 'Stay connected when you are not using the app', claims: [] },
  { scope: 'identity.profile.read', description: 'See your name, language and time zone', claims: ['name', 'locale', 'zoneinfo'] },
  { scope: 'profile', description: 'See your name, language and time zone', claims: ['name', 'locale', 'zoneinfo'], aliasOf: 'identity.profile.read' },
  { scope: 'identity.email.read', description: 'See your e-mail address', claims: ['email', 'email_verified'] },
  { scope: 'email', description: 'See your e-mail address', claims: ['email', 'email_verified'], aliasOf: 'identity.email.read' },
  { scope: 'identity.profile.write', description: 'Change your name, language and time zone', claims: [] },
  { scope: 'identity.organization.read', description: 'See your organizations', claims: [] },
  { scope: 'identity.organization.members.read', description: 'See the members of your organizations', claims: [] },
  { scope: 'identity.privacy.export', description: 'Export your personal data', claims: [] },
  { scope: 'identity.developer.read', description: 'See your applications, API keys and webhooks', claims: [] },
  { scope: 'identity.applications.manage', description: 'Register applications for you', claims: [] },
  { scope: 'identity.webhooks.test', description: 'Send test webhook events for you', claims: [] },
  { scope: 'identity.api_keys.create', description: 'Create API keys for you', claims: [] },
];

/** oidc-provider's `claims` configuration: scope -> released claims. */
export function claimsByScope(): Record<string, string[]> {
  return Object.fromEntries(SCOPE_TABLE.filter((s) => s.claims.length > 0).map((s) => [s.scope, s.claims]));
}

/** Requested scopes in the consent screen's plain words (unknown values are shown as they are). */
export function describeScopes(scope: string): { scope: string; description: string }[] {
  return scope
    .split(' ')
    .filter(Boolean)
    .map((requested) => ({ scope: requested, description: SCOPE_TABLE.find((s) => s.scope === requested)?.description ?? requested }));
}
