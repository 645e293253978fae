/**
 * The rate-limit buckets: the one definition of their names and documented defaults (docs/decisions.md,
 * docs/errors-and-limits.md). Operations name a bucket from this table; the type is derived from it, so
 * a bucket cannot be named without a policy. Every limit is multiplied by RATE_LIMIT_SCALE.
 */
export interface BucketPolicy {
  limit: number;
  windowSeconds: number;
  description: string;
}

export const RATE_LIMIT_BUCKETS = {
  docs_ask: { limit: 20, windowSeconds: 60, description: 'help questions per client' },
  signin: { limit: 10, windowSeconds: 60, description: 'sign-in and step-up attempts per client' },
  signin_account: { limit: 10, windowSeconds: 60, description: 'sign-in and step-up attempts per account' },
  enrollment_start: { limit: 30, windowSeconds: 3600, description: 'enrollment, recovery and e-mail code starts per client' },
  mail_per_address: { limit: 5, windowSeconds: 3600, description: 'mails started per e-mail address and purpose' },
  code_resend: { limit: 3, windowSeconds: 900, description: 'code re-sends per enrollment or recovery' },
  code_attempts: {
    limit: 30,
    windowSeconds: 900,
    description: 'code verifications per client (each address and purpose also allows 5 wrong codes per 15 minutes)',
  },
  passkey_options: { limit: 30, windowSeconds: 60, description: 'passkey challenges per client' },
  oauth_register: { limit: 10, windowSeconds: 3600, description: 'OAuth client registrations per client' },
  invitation_preview: { limit: 30, windowSeconds: 60, description: 'invitation link previews per client' },
  application_register: { limit: 20, windowSeconds: 3600, description: 'developer application registrations per account' },
  // Identifiers are taken for good: the bucket keeps one account from squatting many.
  api_resource_register: { limit: 20, windowSeconds: 3600, description: 'API resource registrations per account' },
  mcp_requests: { limit: 300, windowSeconds: 60, description: 'MCP requests per client (an agent calls tools in bursts; each call is one request)' },
  invitation_mail: { limit: 30, windowSeconds: 3600, description: 'organization invitation mails (new and resent) per inviting account' },
  validation_failures: {
    limit: 20,
    windowSeconds: 300,
    description: 'refused inputs per client; past the limit each one is logged as a validation_probe security event (never answers 429 itself)',
  },
  federation_discovery: { limit: 30, windowSeconds: 60, description: 'federation discovery look-ups per client' },
  // A directory's initial sync sends thousands of requests in minutes; the bucket keeps one runaway client from starving the rest.
  scim: { limit: 1200, windowSeconds: 60, description: 'SCIM requests per token' },
  // Counted after the client authenticated, so nobody can spend another client's bucket by naming it.
  client_credentials: { limit: 600, windowSeconds: 60, description: 'machine token requests (client credentials) per authenticated client' },
  federation_start: { limit: 20, windowSeconds: 60, description: 'federated sign-in starts per client (each one fetches the provider metadata)' },
  test_only: { limit: 3, windowSeconds: 60, description: 'used only by the test suite' },
} as const satisfies Record<string, BucketPolicy>;

export type RateLimitBucket = keyof typeof RATE_LIMIT_BUCKETS;
