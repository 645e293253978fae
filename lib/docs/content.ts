/**
 * The service's own documentation, as data: rendered by the /docs pages and searched by the help
 * endpoint when no provider is configured (and given to the provider as context when one is).
 */
export interface DocSection {
  slug: string;
  title: string;
  url: string;
  body: string[];
  /**
   * Words people ask with that the text does not use ("Express", "logout", "login"): the help search
   * counts them like title words. Never shown.
   */
  keywords?: string[];
}

export const DOC_SECTIONS: readonly DocSection[] = [
  {
    slug: 'overview',
    title: 'What the service is',
    url: '/docs#overview',
    body: [
      'An identity and access service: hosted sign-in with passkeys, passwords and e-mail codes, organizations (tenants) with an admin console, a developer portal for applications, API keys and webhooks, and an OAuth 2.0 / OpenID Connect provider.',
      'Every API path is declared once in an operation registry; the OpenAPI 3.1 document at /api/openapi.json is generated from it.',
      'Where to start: people sign up at /sign-up and sign in at /sign-in; organization admins work at /console; developers register applications, API keys and webhooks at /portal.',
    ],
  },
  {
    slug: 'quickstart',
    title: 'Add sign-in to your app (Node.js, Express)',
    url: '/docs#quickstart',
    keywords: [
      'express',
      'node',
      'nodejs',
      'javascript',
      'login',
      'integrate',
      'integration',
      'app',
      'website',
      'openid-client',
      'relying',
      'party',
      'connect',
    ],
    body: [
      'Register your app in the developer portal (/portal, Applications): a confidential client for a server-side app (it gets a client secret, shown once), a public client for a browser or mobile app (PKCE, no secret). Give the exact redirect URIs your app uses: HTTPS, or http://localhost and http://127.0.0.1 while you develop. Tick openid, and profile and email for the person’s name and address.',
      'Each application in the portal shows the values to paste, with Copy buttons: the issuer (this service’s origin), the discovery URL {issuer}/.well-known/openid-configuration, the client ID and the redirect URIs, plus a Node.js quickstart written for that application.',
      'With openid-client 6 in Express: config = await client.discovery(new URL(issuer), clientId, undefined, client.ClientSecretBasic(process.env.CLIENT_SECRET)) (a public client passes client.None() instead). On GET /login keep a PKCE verifier and a state in the session and redirect to client.buildAuthorizationUrl(config, { redirect_uri, scope: "openid profile email", code_challenge, code_challenge_method: "S256", state }). On the redirect URI call client.authorizationCodeGrant(config, currentUrl, { pkceCodeVerifier, expectedState }) and read the person with client.fetchUserInfo(config, tokens.access_token, tokens.claims().sub).',
      'An http issuer (http://localhost while you develop) needs { execute: [client.allowInsecureRequests] } as the last argument of discovery; production issuers are https.',
    ],
  },
  {
    slug: 'authentication',
    title: 'Authentication modes',
    url: '/docs#authentication',
    body: [
      'Browser sessions use a sealed, httpOnly cookie (__Host-session over HTTPS). Mutations with a session need the exact service Origin and the X-CSRF-Token header returned by GET /api/auth/session.',
      'Sensitive mutations need a recent step-up: a passkey or password re-authentication within the step-up window (10 minutes by default). Without it the answer is 403 step_up_required.',
      'Server-to-server calls send Authorization: Bearer <token>. Tokens starting with idk_ are API keys (the developer API) and anything else is an OAuth access token of this service; the scim_ prefix is kept for SCIM tokens, which are not issued yet (SCIM is planned).',
      'Enrollment and recovery tokens travel in the X-Enrollment-Token and X-Recovery-Token headers.',
    ],
  },
  {
    slug: 'accounts',
    title: 'Accounts, sign-in and recovery',
    url: '/docs#accounts',
    body: [
      'Accounts are created only with a verified e-mail address: POST /api/auth/enrollment/start mails a six-digit code (10 minutes, single use; 5 wrong codes per address per 15 minutes, re-sends included), verify-email checks it, and password/complete or passkey/complete creates the account.',
      'The hosted sign-up page (/sign-up) ends signed in: once the account exists it signs in with the new password or passkey for you, and returns to where sign-up began (an application’s consent page, for instance). The enrollment calls themselves issue no session, so a client of the API signs in afterwards (POST /api/auth/signin/password or the passkey sign-in).',
      'Sign in with a passkey (usernameless, also offered in the e-mail field by browser autofill), with e-mail and password, or with a single-use code mailed to you. Every sign-in issues a new session.',
      'Sign-in failures are generic (401 invalid_credentials) whether the account is unknown, the password wrong or password sign-in locked. Ten wrong passwords in a row pause password sign-in for 15 minutes (doubling on repeat) and mail the owner; passkeys and e-mail codes keep working.',
      'Starts for enrollment, e-mail codes and recovery always answer the same way, and always send one mail: a code, or a note that the address already has (or has no) account.',
      'Recovery proves control of the address with a mailed code, then registers a replacement passkey or sets a new password. It keeps existing passkeys and password, signs out every session, ends every application’s access (OAuth grants and tokens: they must be authorized again) and tells the owner by mail.',
    ],
  },
  {
    slug: 'passkeys',
    title: 'Passkeys',
    url: '/docs#passkeys',
    keywords: ['webauthn', 'fido', 'fido2', 'biometric', 'touch', 'face', 'authenticator', 'passwordless'],
    body: [
      'A passkey is a WebAuthn credential kept by the device or password manager: sign-up can create one instead of a password, and /sign-in signs in with it without typing an address (usernameless; browsers also offer it in the e-mail field through autofill). User verification is required.',
      'Add, rename and remove passkeys on /account (adding and removing need a recent step-up). The last credential of an account cannot be removed: with no password, the last passkey stays.',
      'The API ceremonies are pairs of options + complete calls: /api/auth/enrollment/passkey/* creates an account, /api/auth/signin/passkey/* signs in, /api/auth/step-up/passkey/* confirms it is you, /api/auth/recovery/passkey/* registers a replacement passkey after a recovery code. The relying party ID is the host of BASE_URL, so passkeys work only on that host.',
    ],
  },
  {
    slug: 'sessions',
    title: 'Sessions and step-up',
    url: '/docs#sessions',
    body: [
      'Sessions last 24 hours without activity and 7 days at most. GET /api/auth/sessions lists yours; POST /api/auth/sessions/revoke ends one (your current one signs you out; any other needs a recent step-up) and takes effect on its very next request. POST /api/auth/sessions/revoke-others signs you out everywhere else (step-up). Signing in ends the session the browser held; an account keeps at most 30 live sessions (the least recently used one ends).',
      'Passkey and password sign-ins count as a fresh step-up; an e-mail code does not. Step up again with POST /api/auth/step-up/passkey/options + complete or POST /api/auth/step-up/password when an operation answers 403 step_up_required. A step-up renews the session cookie: use the one from its answer, the old one no longer works.',
      'Changing your password signs out your other sessions and ends the application access granted from them (the applications you authorized from the sign-in you are using keep working). You cannot remove your last passkey when you have no password.',
      'Sign out from the header’s Sign out button, or POST /api/auth/sessions/revoke with your current session: the cookie is cleared and the provider session ends with it.',
    ],
  },
  {
    slug: 'oauth',
    title: 'OAuth 2.0 and OpenID Connect',
    url: '/docs#oauth',
    keywords: ['oidc', 'authorize', 'authorization', 'consent', 'discovery', 'issuer', 'login', 'code', 'challenge', 'verifier', 's256', 'native'],
    body: [
      'Discovery is at /.well-known/openid-configuration (and /.well-known/oauth-authorization-server); keys at /.well-known/jwks.json. The issuer is BASE_URL. Applications are registered in the developer portal; public native clients may also register at POST /oauth/register: application_type native, token_endpoint_auth_method none, HTTPS or loopback redirect URIs only.',
      'PKCE is required of every client, S256 only: create a random code_verifier, send code_challenge = BASE64URL(SHA-256(code_verifier)) with code_challenge_method=S256 to GET /oauth/authorize, and the code_verifier with the code to /oauth/token. plain and requests without PKCE are refused.',
      'Send browsers to GET /oauth/authorize with response_type=code, client_id, the exact redirect_uri, scope, state and the PKCE challenge; a form POST of the same parameters works too (OIDC Core 3.1.2.1) and is answered with a redirect to the GET. The person signs in on the hosted pages if needed and answers the consent page; the code comes back with iss (RFC 9207). Native clients are always asked to consent. GET /oauth/authorize/context checks raw request parameters (client, exact redirect URI, PKCE, scopes, resource) before you send anyone.',
      'prompt=login asks the person to sign in again even when a session exists; max_age=N accepts a sign-in at most N seconds old; auth_time and amr in the ID token come from that sign-in. prompt=none answers login_required when the browser has no live session here.',
    ],
  },
  {
    slug: 'tokens',
    title: 'Tokens: codes, refresh and revocation',
    url: '/docs#tokens',
    keywords: ['refresh', 'token', 'tokens', 'access', 'rotate', 'rotation', 'expire', 'expiry', 'revoke', 'userinfo', 'bearer', 'offline'],
    body: [
      'POST /oauth/token exchanges the code (with code_verifier) or a refresh token. Access tokens last 10 minutes and are opaque: call GET /oauth/userinfo or the /api/v1 routes with them as a Bearer token.',
      'A refresh token comes only with the offline_access scope, and only through the consent page (prompt=consent, OIDC Core 11). Refresh tokens rotate: each use returns a new one, and presenting a used one revokes the whole family. Using a code twice revokes what it issued. Refresh tokens last 30 days from the first sign-in of the chain; rotation does not extend that.',
      'POST /oauth/revoke ends a token and its whole family: send the RFC 7009 form, or JSON { token, token_type_hint?, client_id } with an Idempotency-Key header. Signing out of the service or revoking a session ends the provider session too, and tokens issued without offline_access stop working with it.',
      'Resources (RFC 8707): without resource, access tokens are for this service (GET /oauth/userinfo and /api/v1). With resource={base_url}/mcp the token is audience-bound to /mcp and refused everywhere else; resource={base_url} asks for the API explicitly. Any other resource is invalid_target. Protected-resource metadata (RFC 9728): /.well-known/oauth-protected-resource/mcp and /.well-known/oauth-protected-resource.',
      'GET /api/v1/me needs identity.profile.read or identity.email.read (the e-mail only with the latter); PATCH /api/v1/me needs identity.profile.write and an Idempotency-Key; GET /api/v1/me/memberships (identity.organization.read) lists your own active memberships; GET /api/v1/privacy/export needs identity.privacy.export.',
    ],
  },
  {
    slug: 'scopes',
    title: 'Scopes and claims',
    url: '/docs#scopes',
    keywords: ['scope', 'claims', 'claim', 'profile', 'email', 'permission', 'permissions', 'openid'],
    body: [
      'openid (sub); profile = identity.profile.read (name, locale, zoneinfo); email = identity.email.read (email, email_verified); offline_access (a refresh token, only through consent); identity.profile.write, identity.organization.read, identity.organization.members.read, identity.privacy.export, identity.developer.read, identity.applications.manage, identity.webhooks.test, identity.api_keys.create for the API routes that name them.',
      'A request without scope is processed as scope=identity.profile.read (RFC 6749 §3.3 default): no ID token, no refresh token. In the portal, openid, profile, email, offline_access and the profile, e-mail and organization reads are approved at once; scopes that act on a developer account (identity.developer.read included), change a profile or export data wait for an operator’s review (npm run applications:certify).',
    ],
  },
  {
    slug: 'logout',
    title: 'Signing out of your app',
    url: '/docs#logout',
    keywords: ['logout', 'log', 'out', 'signout', 'sign', 'end', 'session', 'rp-initiated', 'end_session'],
    body: [
      'RP-initiated logout is not offered (discovery has no end_session_endpoint): to sign someone out of your app, end your own session, and revoke the refresh token you hold with POST /oauth/revoke so the grant cannot be used again.',
      'Signing out of this service (the header’s Sign out, or POST /api/auth/sessions/revoke with the current session) ends the person’s session here and the provider session: the next authorization asks them to sign in again, and prompt=none answers login_required. Tokens issued without offline_access stop working with that session.',
    ],
  },
  {
    slug: 'portal',
    title: 'The developer portal: applications',
    url: '/docs#portal',
    keywords: ['portal', 'application', 'applications', 'client', 'client_id', 'secret', 'register', 'redirect', 'certification', 'review'],
    body: [
      'At /portal you register applications that are real OAuth clients of the provider: confidential (client_secret_basic; the secret is shown once, stored hashed, and can be rotated) or public (PKCE only). Redirect URIs must match exactly. Every change in the portal asks you to confirm it is you (a recent passkey or password step-up).',
      'Each application shows its certification: the approved scopes (the only ones the provider lets it request) and the ones waiting for review. Disabling an application revokes every grant and token it holds at once.',
      'Organizations can assign an application to themselves (/console, Applications), so its owner receives that organization’s webhook events.',
    ],
  },
  {
    slug: 'api-keys',
    title: 'API keys',
    url: '/docs#api-keys',
    keywords: ['api', 'key', 'keys', 'idk', 'script', 'automation', 'token', 'create', 'ci'],
    body: [
      'Create an API key in the portal (/portal, API keys) or with POST /api/developer/api-keys { name, scopes, expires_at? } (a session with a recent step-up). The key (idk_...) is in that answer only: the service keeps its SHA-256. Scopes are a non-empty subset of identity.developer.read, identity.applications.manage and identity.webhooks.test; an expiry is optional (at most a year).',
      'A script sends it as Authorization: Bearer idk_... to the developer API under /api/v1/developer/* (applications, API keys, webhooks, deliveries, audit events). Revoking a key (POST /api/developer/api-keys/revoke) or its expiry takes effect on the very next request. An account holds at most 50 live keys.',
    ],
  },
  {
    slug: 'webhooks',
    title: 'Webhooks and their signatures',
    url: '/docs#webhooks',
    keywords: [
      'webhook',
      'webhooks',
      'signature',
      'signatures',
      'verify',
      'verification',
      'hmac',
      'standard',
      'svix',
      'event',
      'events',
      'delivery',
      'deliveries',
      'receiver',
      'endpoint',
    ],
    body: [
      'Subscribe an HTTPS endpoint to events in the portal (/portal, Webhooks) or with POST /api/developer/webhooks { url, events, description? }. The signing secret (whsec_...) is shown once, at creation and at each rotation.',
      'Every delivery is a POST of { type, timestamp, data } signed the Standard Webhooks way: headers webhook-id, webhook-timestamp and webhook-signature (v1,<base64 HMAC-SHA256 of "id.timestamp.body" with the secret’s bytes>). Verify before trusting it, with the raw body: new Webhook(secret).verify(rawBody, headers) from the standardwebhooks (or svix) package throws on a wrong signature or an old timestamp. webhook-id stays the same across retries: deduplicate on it.',
      'Answer 2xx quickly. 5xx answers, timeouts and network, TLS or DNS errors are retried with backoff (8 attempts in all); 3xx and 4xx fail at once (redirects are not followed: fix the endpoint, then retry from the delivery log); 410 disables the subscription. POST /api/developer/webhooks/test sends a test event; the delivery log (GET /api/developer/webhooks/deliveries) shows each attempt’s status.',
      'Endpoints must resolve to public addresses only (no loopback, private, link-local or metadata addresses). While you develop on the embedded database at a localhost address, receivers on your own machine are accepted too: http:// or https:// at localhost, 127.0.0.1 or [::1] (see Running the service).',
    ],
  },
  {
    slug: 'organizations',
    title: 'Organizations, members and roles',
    url: '/docs#organizations',
    keywords: [
      'organization',
      'organizations',
      'org',
      'tenant',
      'tenants',
      'member',
      'members',
      'team',
      'invite',
      'invitation',
      'invitations',
      'role',
      'roles',
      'admin',
      'group',
      'groups',
      'console',
    ],
    body: [
      'Create an organization and run it at /console, or through /api/organizations/*: members, invitations by e-mail (POST /api/organizations/{id}/invitations { email, role }; the link travels only in the mail), groups, custom roles as permission sets, delegated admins with expiring grants, policies, approvals and the audit log.',
      'Built-in roles are owner, admin and member; every operation declares the permission it needs (members.manage, invitations.manage, roles.manage, audit.read, ...) and answers 403 forbidden without it. Some changes need an approval by another admin first (403 approval_required).',
      'Applications read an organization with a token bound to it: authorize with organization=<id> (or let the person choose on the consent page) and identity.organization.read, then GET /api/v1/organizations/{id}, its members, invitations and groups. GET /api/v1/me/memberships lists the person’s own organizations.',
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
    keywords: ['error', 'problem', 'status', 'code', '400', '401', '403', '404', '409', '422', '500', 'failed', 'fails'],
    body: [
      'Errors are RFC 9457 problem documents (application/problem+json) with type, title, status, detail, a stable snake_case code and the request_id.',
      'Common codes: invalid_request, invalid_pagination, unauthenticated, invalid_credentials, forbidden, insufficient_scope, step_up_required, approval_required, origin_mismatch, csrf_failed, not_found, conflict, rate_limited, unsupported_api_version, idempotency_key_required, idempotency_key_reused, idempotency_request_in_flight, payload_too_large, service_unavailable.',
      '400 invalid_request lists each refused field in errors[] ({ path, message }); 401 means no valid credential, 403 a credential that may not do this (step_up_required carries the methods that can confirm it), 429 a spent rate limit with Retry-After.',
      'Every response carries an X-Request-ID header; send your own (8-128 characters of letters, digits and ._:-) to correlate logs.',
    ],
  },
  {
    slug: 'rate-limits',
    title: 'Rate limits',
    url: '/docs#rate-limits',
    keywords: ['rate', 'limit', 'limits', 'throttle', 'throttling', '429', 'quota', 'too', 'many'],
    body: [
      'Rate limits are named buckets shared by every instance. A spent bucket answers 429 rate_limited with Retry-After. Limits per client send RateLimit-Policy and RateLimit headers on every answer; limits per e-mail address or account never do, so an answer does not tell how much an address was used.',
      'Defaults: sign-in 10 per minute per client and per account; enrollment, e-mail code and recovery starts 30 per hour per client, and 5 mails per hour per address and purpose; code re-send 3 per 15 minutes; passkey challenges 30 per minute per client; OAuth client registration 10 per hour per client; application registration 20 per hour per account; invitation mails 30 per hour per inviting account; MCP requests 300 per minute per client; help questions 20 per minute per client. An operator may raise them all with RATE_LIMIT_SCALE; they never switch off.',
    ],
  },
  {
    slug: 'pagination',
    title: 'Pagination',
    url: '/docs#pagination',
    keywords: ['page', 'pages', 'paging', 'cursor', 'next_cursor', 'has_more', 'list', 'results'],
    body: [
      'Collections return has_more and next_cursor. Pass next_cursor unchanged as cursor; do not parse or build cursors. limit is 1 to 100 (default 100).',
      'Ordering is by created_at then id, descending. A bad cursor or limit answers 400 invalid_pagination.',
    ],
  },
  {
    slug: 'idempotency',
    title: 'Idempotency',
    url: '/docs#idempotency',
    keywords: ['retry', 'retries', 'safely', 'twice', 'duplicate', 'duplicates', 'idempotent', 'replay', 'once'],
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
    keywords: [
      'install',
      'run',
      'deploy',
      'database',
      'postgres',
      'pglite',
      'smtp',
      'mail',
      'mailbox',
      'local',
      'development',
      'environment',
      'configuration',
      'dev',
    ],
    body: [
      'Without DATABASE_URL the service runs on an embedded PostgreSQL (PGlite) under DATA_DIR and generates its own secrets there. With DATABASE_URL it needs SESSION_SECRET, PASSWORD_PEPPER and DATA_ENCRYPTION_KEY.',
      'Without SMTP_URL, mail goes to the dev mailbox: one .eml file per message under DATA_DIR/mailbox. While you develop, read the newest ones decoded at /dev/mail or with npm run mail:latest.',
      'Local development is the embedded database at a localhost BASE_URL (the default http://localhost:3000): webhooks may then go to receivers on your own machine (localhost, 127.0.0.1, [::1]) and /dev/mail shows the dev mailbox to a browser on this machine. LOCAL_DEVELOPMENT=false switches it off; with DATABASE_URL it is always off, and every guard holds.',
    ],
  },
];
