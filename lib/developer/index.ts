/** The developer portal context: API keys (applications and webhooks come later). */
export { resolveApiKey } from './api-keys';
