/**
 * Shared mechanisms every context may use: idempotency records, rate-limit counters, expiry sweeps,
 * encryption of recoverable secrets, and a bounded semaphore for expensive work.
 */
export { sealSecret, openSecret } from './encryption';
export {
  abandonIdempotent,
  beginIdempotent,
  finishIdempotent,
  hashRequest,
  isValidIdempotencyKey,
  type IdempotencyScope,
  type StoredResponse,
} from './idempotency';
export { consumeRateLimit, type RateDecision } from './rate-limit';
export { Semaphore } from './semaphore';
export { shouldSweep } from './sweep';
