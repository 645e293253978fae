/**
 * What the console says about each organization policy: a name and a sentence for people, and how
 * its value is read and edited. The keys, types and bounds are the API's (lib/contract/policies.ts,
 * which runs on the server only); the key stays on screen as secondary detail.
 */
import type { Choice } from '../_components/form-fields';
import type { ApprovalAction, SignInMethod } from '@/lib/contract/tenant';

export type PolicyKind =
  /** Whole seconds in the API, shown and edited in minutes, hours and days (and seconds when the minimum is below a minute). */
  { type: 'duration'; minSeconds: number } | { type: 'choices'; options: Choice[]; none: string } | { type: 'switch' };

export interface PolicyText {
  name: string;
  sentence: string;
  kind: PolicyKind;
}

const SIGN_IN_METHODS: Record<SignInMethod, string> = {
  passkey: 'Passkey',
  password: 'Password',
  email_code: 'E-mail code',
  federation: 'Single sign-on (federation)',
};

/** The changes `approvals.required_for` can put behind an approval, as an administrator reads them. */
export const APPROVAL_ENTRY_LABELS: Record<ApprovalAction, string> = {
  'members.remove': 'Removing or suspending a member',
  'policies.delete': 'Resetting or loosening a policy',
  'delegated_admins.create': 'Granting delegated admin permissions',
  'agent_actions.register_high_risk': 'Registering a high-risk agent action',
};

const choices = (labels: Record<string, string>): Choice[] => Object.entries(labels).map(([value, label]) => ({ value, label }));

// The minimums are the catalogue's (lib/contract/policies.ts); the maximum is each duration's default, the service's own limit.
const POLICY_TEXT: Record<string, PolicyText> = {
  'session.max_age_seconds': {
    name: 'Maximum session age',
    sentence:
      'How long a sign-in counts for acting in this organization. Older sessions must sign in again, and OAuth tokens approved by that sign-in stop working.',
    kind: { type: 'duration', minSeconds: 300 },
  },
  'session.idle_timeout_seconds': {
    name: 'Idle timeout',
    sentence: 'A session left unused for longer than this must sign in again before acting in this organization.',
    kind: { type: 'duration', minSeconds: 300 },
  },
  'step_up.max_age_seconds': {
    name: 'Re-confirmation window',
    sentence: 'How recently members must have confirmed it’s them (passkey or password) before a sensitive change in this organization.',
    kind: { type: 'duration', minSeconds: 30 },
  },
  'signin.allowed_methods': {
    name: 'Allowed sign-in methods',
    sentence: 'Only sessions signed in with one of these methods may act in this organization, or authorize applications bound to it.',
    kind: { type: 'choices', options: choices(SIGN_IN_METHODS), none: 'none' },
  },
  'session.binding': {
    name: 'Bind sessions to their device',
    sentence: 'When on, a session acts in this organization only from the device and network it signed in on.',
    kind: { type: 'switch' },
  },
  'approvals.required_for': {
    name: 'Changes that need approval',
    sentence: 'These changes go through only with a request that another administrator approved.',
    kind: { type: 'choices', options: choices(APPROVAL_ENTRY_LABELS), none: 'none (no change needs approval)' },
  },
  'applications.assigned_only': {
    name: 'Assigned applications only',
    sentence: 'When on, members may authorize only the applications this organization has assigned to itself.',
    kind: { type: 'switch' },
  },
};

/** The console's words for a policy; a key it does not know keeps the API's own description. */
export function policyText(key: string, apiDescription: string): PolicyText | { name: string; sentence: string; kind: null } {
  return POLICY_TEXT[key] ?? { name: key, sentence: apiDescription, kind: null };
}

/** A policy's display name, by key (approvals name policies by key). */
export function policyName(key: string): string | undefined {
  return POLICY_TEXT[key]?.name;
}

const UNITS = [
  { seconds: 86_400, one: 'day', many: 'days' },
  { seconds: 3_600, one: 'hour', many: 'hours' },
  { seconds: 60, one: 'minute', many: 'minutes' },
  { seconds: 1, one: 'second', many: 'seconds' },
] as const;

/** 604800 -> "7 days", 5400 -> "1 hour 30 minutes". */
export function formatDuration(totalSeconds: number): string {
  if (!Number.isFinite(totalSeconds) || totalSeconds <= 0) return `${totalSeconds} seconds`;
  let rest = Math.round(totalSeconds);
  const parts: string[] = [];
  for (const unit of UNITS) {
    const count = Math.floor(rest / unit.seconds);
    rest -= count * unit.seconds;
    if (count > 0) parts.push(`${count} ${count === 1 ? unit.one : unit.many}`);
  }
  return parts.join(' ');
}

/** The units a duration policy is edited in: down to seconds only where its minimum is below a minute. */
export function durationUnits(minSeconds: number): Choice[] {
  return UNITS.filter((unit) => unit.seconds >= 60 || minSeconds < 60).map((unit) => ({ value: String(unit.seconds), label: unit.many }));
}

/** The largest offered unit that holds `seconds` exactly, as amount and unit (7 days, not 168 hours). */
export function splitDuration(seconds: number, units: Choice[]): { amount: number; unit: number } {
  const sizes = units.map((unit) => Number(unit.value));
  const unit = sizes.find((size) => seconds % size === 0) ?? sizes[sizes.length - 1]!;
  return { amount: seconds / unit, unit };
}

/** A policy value in words: durations in units, lists by their labels, switches on or off. */
export function policyValueText(kind: PolicyKind | null, value: unknown): string {
  if (kind?.type === 'duration' && typeof value === 'number') return formatDuration(value);
  if (kind?.type === 'switch' && typeof value === 'boolean') return value ? 'on' : 'off';
  if (kind?.type === 'choices' && Array.isArray(value)) {
    if (value.length === 0) return kind.none;
    return value.map((item) => kind.options.find((option) => option.value === item)?.label ?? String(item)).join(', ');
  }
  return JSON.stringify(value);
}
