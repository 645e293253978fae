/**
 * Shared mechanisms every context may use: idempotency records, rate-limit counters, expiry sweeps,
 * encryption of recoverable secrets, and a bounded semaphore for expensive work.
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
export { consumeRateLimit, type RateDecision } from './rate-limit';
export { Semaphore } from './semaphore';
export { shouldSweep } from './sweep';
