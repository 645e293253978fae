/**
 * The auth declarations the developer surface shares (spec, Developer browser and bearer contracts):
 * the browser routes need a session and a recent step-up (passkey or password); the bearer routes take
 * an API key or an OAuth token holding the scope. Applications, API keys, activity and webhooks live
 * in two contexts, so the terms live here, once.
 */
import type { BearerTerm, SessionTerm } from './wire';
import type { ApiKeyScope } from './scopes';

export const DEVELOPER_TAG = 'Developer';
export const DEVELOPER_BEARER_TAG = 'Developer (bearer)';

export const DEVELOPER_STEP_UP: SessionTerm = { kind: 'session', stepUp: { methods: ['passkey', 'password'] } };
export const DEVELOPER_BEARER = (scope: ApiKeyScope): BearerTerm => ({ kind: 'bearer', accepts: ['api_key', 'oauth'], scopes: [scope] });
