/** The developer portal context: API keys and applications (webhooks live in lib/webhooks). */
export { API_KEY_SCOPES, createApiKey, CREATED_API_KEY_SCHEMA, resolveApiKey, revokeGrantApiKeys } from './api-keys';
export { AGENT_API_KEY_MAX_LIFETIME_MS } from './agent-api-keys';
export { APPLICATION_SCHEMA, approveApplicationScopes, listOwnApplications, type ApplicationView } from './applications';
