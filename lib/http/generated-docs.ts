import { ERROR_CATALOGUE } from '@/lib/contract/errors';
import { buildAuthMatrix } from './auth-matrix';
import { RATE_LIMIT_BUCKETS } from '@/lib/contract/rate-limits';
import { buildOpenApiDocument } from './openapi';
import { OPERATIONS } from './registry';

/** The committed, generated contract files (path relative to the repository -> content). */
export function renderGeneratedDocs(): Record<string, string> {
  return {
    'docs/openapi.json': `${JSON.stringify(buildOpenApiDocument(OPERATIONS), null, 2)}\n`,
    'docs/auth-matrix.md': buildAuthMatrix(OPERATIONS),
    'docs/errors-and-limits.md': errorsAndLimits(),
  };
}

function errorsAndLimits(): string {
  const errors = Object.entries(ERROR_CATALOGUE).map(([code, e]) => `| \`${code}\` | ${e.status} | ${e.title} |`);
  const buckets = Object.entries(RATE_LIMIT_BUCKETS)
    .filter(([name]) => name !== 'test_only')
    .map(([name, b]) => `| \`${name}\` | ${b.limit} | ${b.windowSeconds} s | ${b.description} |`);
  return [
    '# Error codes and rate limits',
    '',
    'Generated from the error catalogue and the rate-limit buckets by `npm run docs:generate`; do not edit by hand.',
    '',
    'Errors are RFC 9457 problem documents (`application/problem+json`) with `type`, `title`, `status`, `detail`,',
    'a stable `code` and the `request_id`; validation errors add `errors: [{ path, message }]`, a missing step-up adds',
    '`step_up: { methods, max_age_seconds }`.',
    '',
    '| Code | Status | Meaning |',
    '|---|---|---|',
    ...errors,
    '',
    'Rate-limit buckets (every limit is multiplied by `RATE_LIMIT_SCALE`). A spent bucket answers 429 `rate_limited`',
    'with `Retry-After`. A bucket counted per client address also sends `RateLimit-Policy` and `RateLimit` on every',
    "answer; a bucket counted per e-mail address or account (an operation's subject limit) never does, since its use",
    'would tell anyone how much that address was used lately.',
    '',
    '| Bucket | Limit | Window | Applies to |',
    '|---|---|---|---|',
    ...buckets,
    '',
  ].join('\n');
}
