/**
 * Pipeline step 10: the subject rate limit an operation declares, keyed by what its parsed input names
 * (an e-mail address, an account: something anyone can name). Subjects are stored only as keyed
 * hashes, and a subject bucket's use is never told in headers (rate-limit.ts).
 */
import type { Actor } from '@/lib/contract/actor';
import { keyedHash } from '../client-address';
import { enforceSubjectLimit } from '../rate-limit';
import { established, type Flow, type Step } from './flow';

async function spendSubjectBucket(flow: Flow): Promise<void> {
  const limit = flow.op.subjectRateLimit;
  if (!limit) return;
  const input = established(flow.input, 'parsing');
  const actor = established(flow.actor, 'authentication');
  const subjectOf = limit.subject as (parsed: { body: unknown; query: unknown; actor: Actor }) => string;
  const subject = keyedHash(`subject:${limit.bucket}:${subjectOf({ body: input.body, query: input.query, actor })}`);
  await enforceSubjectLimit(limit.bucket, subject, flow.now);
}

export const subjectRateLimitStep: Step = { name: 'subject_rate_limit', run: spendSubjectBucket };
