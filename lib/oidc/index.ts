/**
 * The OAuth 2.0 / OIDC provider as other contexts see it: the bearer credential for our API, the
 * scope catalogue, a person's consents, ending the provider's sessions of one of our sign-ins, and
 * revoking OAuth access after recovery or a password change or when an organization membership ends.
 */
export { revokeAccountAuthorizations, revokeOtherSignInTokens } from './account-revocation';
export { resolveAccessToken, resolveMcpAccessToken } from './bearer';
export { mcpResource } from './resources';
export { consentsOf } from './consents';
export { generateClientSecret, hashClientSecret } from './client-secret';
export { endOrganizationClientGrants, endOrganizationGrants } from './organization-binding';
export { apiPermissionExists, removeApiResourceServer, writeApiResourceServer, type ApiResourceServer } from './api-resource-servers';
export { removePortalClient, writePortalClient, type PortalClient } from './portal-clients';
export { describeKeys, ensureKeys, retireRetiringKeys, retirementDueAt, rotateKeys } from './keys';
export { endProviderSessions } from './provider-sessions';
export { SCOPE_TABLE, type ScopeDefinition } from './scopes';
export { apiKeyScopesOfClient, grantExpiry, grantIsLive } from './agent-api-keys';
