/**
 * A delivery's life (spec, States and transitions) in ONE table: the outcome of an attempt, a guard on
 * the attempts made so far, and the next state. The worker classifies what happened, looks the row up
 * and applies it; nothing else decides a delivery's state.
 */
import type { OutboundResult } from '@/lib/platform';

export const MAX_ATTEMPTS = 8;
export const LEASE_MS = 60_000;
export const ATTEMPT_TIMEOUT_MS = 15_000;
const BASE_DELAY_MS = 30_000;
const MAX_DELAY_MS = 6 * 3600_000;

export type DeliveryState = 'queued' | 'retrying' | 'delivered' | 'failed';
/** success: 2xx. retryable: timeout, network, TLS, DNS, 5xx. permanent: 3xx, 4xx, a refused address. gone: 410. */
export type Outcome = 'success' | 'retryable' | 'permanent' | 'gone';

interface Transition {
  from: readonly DeliveryState[];
  outcome: Outcome;
  guard: string;
  allows: (attempts: number) => boolean;
  to: DeliveryState;
  /** 410 Gone: the receiver says the endpoint is no more; the subscription is disabled with it. */
  disablesSubscription?: boolean;
}

const SENDABLE = ['queued', 'retrying'] as const;
const always = () => true;

export const TRANSITIONS: readonly Transition[] = [
  { from: SENDABLE, outcome: 'success', guard: '', allows: always, to: 'delivered' },
  { from: SENDABLE, outcome: 'retryable', guard: 'attempts below eight', allows: (n) => n < MAX_ATTEMPTS, to: 'retrying' },
  { from: SENDABLE, outcome: 'retryable', guard: 'eighth attempt', allows: (n) => n >= MAX_ATTEMPTS, to: 'failed' },
  { from: SENDABLE, outcome: 'permanent', guard: '', allows: always, to: 'failed' },
  { from: SENDABLE, outcome: 'gone', guard: '', allows: always, to: 'failed', disablesSubscription: true },
];

export function transitionFor(state: DeliveryState, outcome: Outcome, attempts: number): Transition {
  const found = TRANSITIONS.find((t) => t.from.includes(state) && t.outcome === outcome && t.allows(attempts));
  if (!found) throw new Error(`No delivery transition from ${state} on ${outcome} after ${attempts} attempts`);
  return found;
}

export interface Classified {
  outcome: Outcome;
  /** Safe to store and show: a class, never a body or an address. */
  failureCode: string | null;
  responseStatus: number | null;
}

export function classify(result: OutboundResult): Classified {
  if ('failure' in result) {
    const permanent = result.failure === 'private_address';
    return { outcome: permanent ? 'permanent' : 'retryable', failureCode: result.failure, responseStatus: null };
  }
  const { status } = result;
  if (status >= 200 && status < 300) return { outcome: 'success', failureCode: null, responseStatus: status };
  const failureCode = `http_${Math.floor(status / 100)}xx`;
  if (status === 410) return { outcome: 'gone', failureCode, responseStatus: status };
  // Any 4xx (the spec's table, 429 included) and 3xx (redirects are not followed) need the owner.
  if (status >= 500 || status < 200) return { outcome: 'retryable', failureCode, responseStatus: status };
  return { outcome: 'permanent', failureCode, responseStatus: status };
}

/** Delay before attempt n+1 after n attempts: 30 s x 2^(n-1), capped at 6 h, times a jitter in [0.75, 1.25). */
export function backoffMs(attempts: number, random: number = Math.random()): number {
  const base = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** Math.max(0, attempts - 1));
  return Math.min(MAX_DELAY_MS, Math.round(base * (0.75 + random * 0.5)));
}
