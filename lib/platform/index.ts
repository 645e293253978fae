/**
 * Shared mechanisms every context may use: idempotency records, rate-limit counters, expiry sweeps,
 * encryption of recoverable secrets, a bounded semaphore for expensive work, security event counts and
 * the process's lifecycle state.
 */
export { sealSecret, openSecret } from './encryption';
export {
  beginIdempotent,
  completeIdempotent,
  hashRequest,
  IDEMPOTENCY_LEASE_SECONDS,
  isValidIdempotencyKey,
  releaseIdempotent,
  type IdempotencyClaim,
  type IdempotencyScope,
  type IdempotencyStart,
  type StoredResponse,
} from './idempotency';
export {
  checkDestination,
  exchange,
  type OutboundAnswer,
  isLoopbackAddress,
  isPublicAddress,
  MAX_OUTBOUND_URL_LENGTH,
  postJson,
  parseDestination,
  urlShapeRefusal,
  type OutboundFailure,
  type OutboundResult,
  type UrlRefusal,
} from './outbound';
export { consumeBucket, consumeRateLimit, refundRateLimit, scaledLimit, type RateDecision } from './rate-limit';
export { countSecurityEvent, securityEventCounts } from './security-event-counts';
export { Semaphore } from './semaphore';
export { within } from './deadline';
export { isDraining, startDraining } from './lifecycle';
// Observability is shared infrastructure (lib/observability); re-exported for the contexts' convenience.
export { countSignIn, logLine, metrics, scrape, statusClass, type LogLevel, type LogValue, type SignInMethod, type SignInOutcome } from '@/lib/observability';
export { shouldSweep } from './sweep';
export { base32, prefixedSecretFormat, type PrefixedSecretFormat } from './prefixed-secret';
export { deleteIdempotencyRecordsOf as eraseIdempotencyRecordsOf } from './erasure.repo';
