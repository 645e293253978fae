/** The developer portal context: API keys and applications (webhooks live in lib/webhooks). */
export { resolveApiKey } from './api-keys';
export { approveApplicationScopes, listOwnApplications, type ApplicationView } from './applications';
