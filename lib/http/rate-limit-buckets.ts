// The buckets are defined once, in the contract (lib/contract/rate-limits.ts); this path stays only
// for the OpenAPI generator's import.
export { RATE_LIMIT_BUCKETS, type BucketPolicy } from '@/lib/contract/rate-limits';
