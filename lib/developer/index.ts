/** The developer portal context: API keys and applications (webhooks live in lib/webhooks). */
export { API_KEY_SCOPES, createApiKey, resolveApiKey, revokeGrantApiKeys } from './api-keys';
export { CREATED_API_KEY_SCHEMA } from './api-keys.contract';
export { AGENT_API_KEY_MAX_LIFETIME_MS } from './agent-api-keys';
export { approveApplicationScopes, listOwnApplications, type ApplicationView } from './applications';
export { APPLICATION_SCHEMA } from './applications.contract';
export { eraseDeveloperDataOf } from './erasure';
