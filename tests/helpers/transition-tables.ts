/**
 * Walking a lifecycle table (lib/organizations/transitions): every (state, event) pair is decided, so
 * a test states for each pair either the next state or the refusal, listed or not.
 */
import { expect } from 'vitest';
import { ServiceError } from '@/lib/contract/errors';
import { decide, type TransitionTable } from '@/lib/organizations/transitions/table';

/** What a decision came to: the next state, or the refusal as the API would answer it. */
export type Outcome = { to: string } | { refused: { status: number; code: string; detail?: string; extras: Record<string, unknown> } };

export async function outcomeOf(decision: Promise<{ to: string }>): Promise<Outcome> {
  try {
    return { to: (await decision).to };
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    return { refused: { status: error.status, code: error.code, detail: error.detail, extras: error.extras } };
  }
}

/** Every pair of the table's states and events, decided on the facts given for each event. */
export async function walk<S extends string, T extends S, F, X>(table: TransitionTable<S, T, F, X>, facts: F): Promise<Record<string, Outcome>> {
  const outcomes: Record<string, Outcome> = {};
  for (const state of table.states) {
    for (const event of table.events) outcomes[`${state} ${event}`] = await outcomeOf(decide(table, state, event, facts[event]));
  }
  return outcomes;
}

/** One row per (state, event) pair, and only the table's own states and events in its rows. */
export function expectWellFormed<S extends string, T extends S, F, X>(table: TransitionTable<S, T, F, X>): void {
  const pairs = table.rows.flatMap((row) => row.from.map((state) => `${state} ${row.event}`));
  expect(pairs.length).toBeGreaterThan(0);
  expect(new Set(pairs).size).toBe(pairs.length);
  for (const row of table.rows) {
    expect(table.events).toContain(row.event);
    expect(table.states).toContain(row.to);
    for (const state of row.from) expect(table.states).toContain(state);
  }
}
