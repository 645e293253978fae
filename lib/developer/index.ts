/** The developer portal context: API keys and applications (webhooks live in lib/webhooks). */
export { API_KEY_SCOPES, createApiKey, resolveApiKey } from './api-keys';
export { approveApplicationScopes, listOwnApplications, type ApplicationView } from './applications';
