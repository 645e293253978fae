/**
 * The organization policy keys, as data only: the wire contract of the policies operations names them
 * and browser code imports that contract, while the catalogue of their schemas and defaults
 * (./policies.ts) reads the service's configuration.
 */
export const POLICY_KEYS = [
  'session.max_age_seconds',
  'session.idle_timeout_seconds',
  'step_up.max_age_seconds',
  'signin.allowed_methods',
  'session.binding',
  'approvals.required_for',
  'applications.assigned_only',
] as const;

export type PolicyKey = (typeof POLICY_KEYS)[number];

export function isPolicyKey(value: string): value is PolicyKey {
  return (POLICY_KEYS as readonly string[]).includes(value);
}
