/**
 * The process's place in its life: serving, or draining after SIGTERM. On globalThis, because the
 * signal handler (instrumentation's bundle) and readiness (a route's bundle) hold different copies
 * of this module.
 */
const state = globalThis as unknown as { __identityDrainingSince?: Date };

export function startDraining(now: Date = new Date()): void {
  state.__identityDrainingSince ??= now;
}

export function isDraining(): boolean {
  return state.__identityDrainingSince !== undefined;
}
