/**
 * The service's own documentation, as data: rendered by the /docs pages and searched by the help
 * endpoint when no provider is configured (and given to the provider as context when one is).
 */
export interface DocSection {
  slug: string;
  title: string;
  url: string;
  body: string[];
}

export const DOC_SECTIONS: readonly DocSection[] = [
  {
    slug: 'overview',
    title: 'What the service is',
    url: '/docs#overview',
    body: [
      'An identity and access service: hosted sign-in with passkeys, passwords and e-mail codes, organizations (tenants) with an admin console, a developer portal for applications, API keys and webhooks, and an OAuth 2.0 / OpenID Connect provider.',
      'Every API path is declared once in an operation registry; the OpenAPI 3.1 document at /api/openapi.json is generated from it.',
    ],
  },
  {
    slug: 'authentication',
    title: 'Authentication modes',
    url: '/docs#authentication',
    body: [
      'Browser sessions use a sealed, httpOnly cookie (__Host-session over HTTPS). Mutations with a session need the exact service Origin and the X-CSRF-Token header returned by GET /api/auth/session.',
      'Sensitive mutations need a recent step-up: a passkey or password re-authentication within the step-up window (10 minutes by default). Without it the answer is 403 step_up_required.',
      'Server-to-server calls send Authorization: Bearer <token>. Tokens starting with idk_ are API keys, scim_ are SCIM tokens, anything else is an OAuth access token of this service.',
      'Enrollment and recovery tokens travel in the X-Enrollment-Token and X-Recovery-Token headers.',
    ],
  },
  {
    slug: 'accounts',
    title: 'Accounts, sign-in and recovery',
    url: '/docs#accounts',
    body: [
      'Accounts are created only with a verified e-mail address: POST /api/auth/enrollment/start mails a six-digit code (10 minutes, single use; 5 wrong codes per address per 15 minutes, re-sends included), verify-email checks it, and password/complete or passkey/complete creates the account. Enrollment never issues a session: sign in afterwards.',
      'Sign in with a passkey (usernameless, also offered in the e-mail field by browser autofill), with e-mail and password, or with a single-use code mailed to you. Every sign-in issues a new session.',
      'Sign-in failures are generic (401 invalid_credentials) whether the account is unknown, the password wrong or password sign-in locked. Ten wrong passwords in a row pause password sign-in for 15 minutes (doubling on repeat) and mail the owner; passkeys and e-mail codes keep working.',
      'Starts for enrollment, e-mail codes and recovery always answer the same way, and always send one mail: a code, or a note that the address already has (or has no) account.',
      'Recovery proves control of the address with a mailed code, then registers a replacement passkey or sets a new password. It keeps existing passkeys and password, signs out every session and tells the owner by mail.',
    ],
  },
  {
    slug: 'sessions',
    title: 'Sessions and step-up',
    url: '/docs#sessions',
    body: [
      'Sessions last 24 hours without activity and 7 days at most. GET /api/auth/sessions lists yours; POST /api/auth/sessions/revoke ends one (your current one signs you out; any other needs a recent step-up) and takes effect on its very next request. POST /api/auth/sessions/revoke-others signs you out everywhere else (step-up). Signing in ends the session the browser held; an account keeps at most 30 live sessions (the least recently used one ends).',
      'Passkey and password sign-ins count as a fresh step-up; an e-mail code does not. Step up again with POST /api/auth/step-up/passkey/options + complete or POST /api/auth/step-up/password when an operation answers 403 step_up_required. A step-up renews the session cookie: use the one from its answer, the old one no longer works.',
      'Changing your password signs out your other sessions. You cannot remove your last passkey when you have no password.',
    ],
  },
  {
    slug: 'oauth',
    title: 'OAuth 2.0 and OpenID Connect',
    url: '/docs#oauth',
    body: [
      'Discovery is at /.well-known/openid-configuration (and /.well-known/oauth-authorization-server); keys at /.well-known/jwks.json. Public native clients register at POST /oauth/register: application_type native, token_endpoint_auth_method none, HTTPS or loopback redirect URIs only.',
      'Send browsers to GET /oauth/authorize with response_type=code and PKCE (S256 only; plain and no PKCE are refused); a form POST of the same parameters works too (OIDC Core 3.1.2.1) and is answered with a redirect to the GET. The person signs in on the hosted pages if needed and answers the consent page; the code comes back with iss (RFC 9207). Native clients are always asked to consent. GET /oauth/authorize/context checks raw request parameters (client, exact redirect URI, PKCE, scopes, resource) before you send anyone.',
      'A request without scope is processed as scope=identity.profile.read (RFC 6749 §3.3 default): no ID token, no refresh token. offline_access yields a refresh token only with prompt=consent (OIDC Core 11), and always through the consent page.',
      'prompt=login asks the person to sign in again even when a session exists; max_age=N accepts a sign-in at most N seconds old; auth_time and amr in the ID token come from that sign-in. prompt=none answers login_required when the browser has no live session here: signing out or revoking a session ends the provider session too, and tokens issued without offline_access stop working with it.',
      'POST /oauth/token exchanges the code (with code_verifier) or a refresh token. Refresh tokens rotate; presenting a used one revokes the whole family, and using a code twice revokes what it issued. POST /oauth/revoke ends a token and its whole family: send the RFC 7009 form, or JSON { token, token_type_hint?, client_id } with an Idempotency-Key header.',
      'Resources (RFC 8707): without resource, access tokens are for this service (GET /oauth/userinfo and /api/v1). With resource={base_url}/mcp the token is audience-bound to /mcp and refused everywhere else; resource={base_url} asks for the API explicitly. Any other resource is invalid_target. Protected-resource metadata (RFC 9728): /.well-known/oauth-protected-resource/mcp and /.well-known/oauth-protected-resource.',
      'Scopes: openid (sub); profile = identity.profile.read (name, locale, zoneinfo); email = identity.email.read (email, email_verified); offline_access (a refresh token, only through consent); identity.profile.write, identity.organization.read, identity.organization.members.read, identity.privacy.export, identity.developer.read, identity.applications.manage, identity.webhooks.test, identity.api_keys.create for the API routes that name them.',
      'Access tokens are opaque: GET /api/v1/me needs identity.profile.read or identity.email.read (the e-mail only with the latter); PATCH /api/v1/me needs identity.profile.write and an Idempotency-Key; GET /api/v1/me/memberships (identity.organization.read) lists your own active memberships; GET /api/v1/privacy/export needs identity.privacy.export.',
    ],
  },
  {
    slug: 'mcp',
    title: 'MCP server (/mcp)',
    url: '/docs#mcp',
    body: [
      'POST /mcp speaks the Model Context Protocol (Streamable HTTP): an agent can manage its developer’s portal without a browser. It is stateless: no Mcp-Session-Id, every answer is JSON (no event stream), GET answers 405, and any instance can serve any request.',
      'Only OAuth access tokens requested with resource={base_url}/mcp are accepted; tokens for the API and API keys (idk_) are refused with 401 and WWW-Authenticate: Bearer resource_metadata="{base_url}/.well-known/oauth-protected-resource/mcp", scope="identity.profile.read identity.api_keys.create". A stock MCP client follows it: protected-resource metadata, authorization server metadata, dynamic registration at POST /oauth/register (a public native client), authorization with PKCE and the resource, the person’s consent, the code exchange.',
      'Tools, each needing one scope (a missing one is a tool error that names it): whoami (identity.profile.read; the e-mail only with identity.email.read), list_applications and list_webhook_deliveries (identity.developer.read), send_test_event { webhook_id } (identity.webhooks.test), create_api_key { name, scopes, expires_at? } (identity.api_keys.create).',
      'create_api_key makes a key for the developer API (/api/v1/developer/*) with scopes among identity.developer.read, identity.applications.manage and identity.webhooks.test that the agent’s own application could be granted (a self-registered client: identity.developer.read and identity.webhooks.test; a portal application: its approved scopes); the key is in that tool result only. It expires after 30 days by default and at most, and it is revoked when you disconnect the application (withdraw its consent) or its access ends in any other way. It is audited with you as the actor and the application and consent named, and the portal lists it as created by that application.',
    ],
  },
  {
    slug: 'errors',
    title: 'Errors',
    url: '/docs#errors',
    body: [
      'Errors are RFC 9457 problem documents (application/problem+json) with type, title, status, detail, a stable snake_case code and the request_id.',
      'Common codes: invalid_request, invalid_pagination, unauthenticated, forbidden, insufficient_scope, step_up_required, origin_mismatch, csrf_failed, not_found, conflict, rate_limited, unsupported_api_version, idempotency_key_required, idempotency_key_reused, payload_too_large, service_unavailable.',
      'Every response carries an X-Request-ID header; send your own (8-128 characters of letters, digits and ._:-) to correlate logs.',
    ],
  },
  {
    slug: 'rate-limits',
    title: 'Rate limits',
    url: '/docs#rate-limits',
    body: [
      'Rate limits are named buckets shared by every instance. A spent bucket answers 429 rate_limited with Retry-After. Limits per client send RateLimit-Policy and RateLimit headers on every answer; limits per e-mail address or account never do, so an answer does not tell how much an address was used.',
      'Defaults: sign-in 10 per minute per client and account; enrollment start 30 per hour per client and 5 per hour per address; code re-send 3 per 15 minutes; OAuth client registration 10 per hour per client; help questions 20 per minute per client.',
    ],
  },
  {
    slug: 'pagination',
    title: 'Pagination',
    url: '/docs#pagination',
    body: [
      'Collections return has_more and next_cursor. Pass next_cursor unchanged as cursor; do not parse or build cursors. limit is 1 to 100 (default 100).',
      'Ordering is by created_at then id, descending. A bad cursor or limit answers 400 invalid_pagination.',
    ],
  },
  {
    slug: 'idempotency',
    title: 'Idempotency',
    url: '/docs#idempotency',
    body: [
      'Mutations that list Idempotency-Key take it as a request header. Repeating a request with the same key replays the first response (Idempotent-Replayed: true).',
      'The same key with a different body answers 422 idempotency_key_reused; while the first request is still running, 409. Operations that require a key answer 400 idempotency_key_required without one.',
    ],
  },
  {
    slug: 'versioning',
    title: 'Versioning',
    url: '/docs/versioning',
    body: [
      'The current API version is v1. Send X-Service-API-Version: v1 or nothing; any other value answers 400 unsupported_api_version before authentication.',
      'Responses carry X-Service-API-Version and X-Service-API-Lifecycle. A deprecated operation adds Deprecation and Sunset headers at least 180 days before it is removed.',
    ],
  },
  {
    slug: 'status',
    title: 'Status and readiness',
    url: '/status',
    body: [
      'GET /api/v1/capabilities classifies each capability as live, gated, degraded, manual or planned. GET /api/v1/readiness checks the database, migrations, keys, mail transport and password hashing.',
      'GET /api/v1/rehearsal reports go only when launch approval, an exact https origin, the independent production gates, the data store and operational e-mail are all ready.',
    ],
  },
  {
    slug: 'operating',
    title: 'Running the service',
    url: '/docs#operating',
    body: [
      'Without DATABASE_URL the service runs on an embedded PostgreSQL (PGlite) under DATA_DIR and generates its own secrets there. With DATABASE_URL it needs SESSION_SECRET, PASSWORD_PEPPER and DATA_ENCRYPTION_KEY.',
      'Without SMTP_URL, mail goes to the dev mailbox: one .eml file per message under DATA_DIR/mailbox.',
    ],
  },
];
