/**
 * How far a request got through the pipeline, for the test walks that must show their depth: the
 * bad-input suite asserts that every operation's broken input reached parsing, which an answer alone
 * cannot tell (a 404 may come from the tenant check or from the handler's lookup). The pipeline
 * reports each step a request passed; nothing observes them outside tests, and with no observer a
 * report is a no-op, so production behaviour and answers are unchanged.
 */
import type { AnyOperation } from '@/lib/contract/operation';

/** Pipeline steps a request passed, in order (pipeline.ts numbers them). */
export const PIPELINE_STEPS = [
  'version',
  'body_size',
  'client_rate_limit',
  'origin',
  /** Delegated protocols only: the request was handed to the provider, which parses it. */
  'handed_to_provider',
  'authentication',
  'csrf',
  /** Scopes, tenant, step-up: parsing comes next. */
  'authorization',
  'parsing',
  /** A subject bucket the operation declares (a no-op for the others). */
  'subject_rate_limit',
  'idempotency',
] as const;
export type PipelineStep = (typeof PIPELINE_STEPS)[number];

export type PipelineObserver = (op: AnyOperation, step: PipelineStep) => void;

let observer: PipelineObserver | null = null;

/** Tests only: receive every step passed from now on (null stops). One observer at a time. */
export function observePipelineSteps(next: PipelineObserver | null): void {
  observer = next;
}

export function passed(op: AnyOperation, step: PipelineStep): void {
  observer?.(op, step);
}
