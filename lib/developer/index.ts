/** The developer portal context: API keys (applications and webhooks come later). */
export { API_KEY_SCOPES, createApiKey, resolveApiKey } from './api-keys';
