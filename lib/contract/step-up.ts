/**
 * The one step-up check, applied by the pipeline to every operation whose auth term declares
 * `stepUp` (unconditionally at authorization, or after parsing when the term's `onlyWhen` decides):
 * 403 step_up_required with `step_up: { methods, max_age_seconds }`.
 */
import type { SessionActor } from './actor';
import { serviceError } from './errors';
import type { StepUpMethod } from './operation';

export interface StepUpRule {
  /** Which re-authentication methods count. */
  methods: StepUpMethod[];
  /** How old the step-up may be (the configured step-up window). */
  maxAgeSeconds: number;
}

export function hasRecentStepUp(actor: SessionActor, rule: StepUpRule, now: Date): boolean {
  return (
    actor.stepUpAt !== null &&
    actor.stepUpMethod !== null &&
    rule.methods.includes(actor.stepUpMethod) &&
    now.getTime() - actor.stepUpAt.getTime() <= rule.maxAgeSeconds * 1000
  );
}

/**
 * Refuses without a recent step-up. `availableMethods` says which methods the account can use, so
 * the answer names only those (a passkey-only account has no password to type); it is asked only
 * on refusal.
 */
export async function assertRecentStepUp(
  actor: SessionActor,
  rule: StepUpRule,
  now: Date,
  availableMethods: (userId: string) => Promise<StepUpMethod[]>,
): Promise<void> {
  if (hasRecentStepUp(actor, rule, now)) return;
  const available = await availableMethods(actor.userId);
  const usable = rule.methods.filter((method) => available.includes(method));
  throw serviceError('step_up_required', 'Re-authenticate through /api/auth/step-up and retry.', {
    extras: { step_up: { methods: usable.length > 0 ? usable : rule.methods, max_age_seconds: rule.maxAgeSeconds } },
  });
}
