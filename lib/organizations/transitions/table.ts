/**
 * The lifecycles of organization records (invitations, approvals, memberships) as tables in the form
 * of the webhook delivery table (lib/webhooks/transitions.ts): rows of (from states, event, guards,
 * next state, effects). A service asks the table for the row of its event from the record's current
 * state, checks the row's guards on the facts it read, writes the row's next state and does what the
 * row's effects name. A (state, event) pair without a row is refused (`unlisted`), as is a move whose
 * guard does not hold (the guard's own refusal): nothing else decides a record's state.
 */
import type { ServiceError } from '@/lib/contract/errors';

/** A condition a move needs, on the facts the service read for it. */
export interface Guard<F> {
  /** The condition as the table states it. */
  says: string;
  holds: (facts: F) => boolean | Promise<boolean>;
  refusal: (facts: F) => ServiceError;
}

/** `S`: every state a record can be in; `T`: the states a move writes (what is stored). */
export interface Transition<S extends string, T extends S, E extends string, F, X> {
  from: readonly S[];
  event: E;
  /** Checked in this order; the first that does not hold refuses the move. */
  guards: readonly Guard<F>[];
  to: T;
  effects: X;
}

/** `F` maps each event to the facts its guards read. */
export type EventOf<F> = keyof F & string;
export type RowOf<S extends string, T extends S, F, X> = { [E in EventOf<F>]: Transition<S, T, E, F[E], X> }[EventOf<F>];

export interface TransitionTable<S extends string, T extends S, F, X> {
  states: readonly S[];
  events: readonly EventOf<F>[];
  rows: readonly RowOf<S, T, F, X>[];
  /** The answer to a move no row allows; `facts` are absent when the caller asks before reading them. */
  unlisted: (state: S, event: EventOf<F>, facts: F[EventOf<F>] | undefined) => ServiceError;
}

/** The row for this event from this state, or the table's refusal. */
export function transitionFor<S extends string, T extends S, F, X, E extends EventOf<F>>(
  table: TransitionTable<S, T, F, X>,
  state: S,
  event: E,
  facts?: F[E],
): Transition<S, T, E, F[E], X> {
  const row = table.rows.find((candidate) => candidate.event === event && candidate.from.includes(state));
  if (!row) throw table.unlisted(state, event, facts);
  // The row's event is `event`, so its guards read the facts of `event`.
  return row as unknown as Transition<S, T, E, F[E], X>;
}

/**
 * The one row of an event, for a move whose from-states a single conditional write checks (under
 * concurrency the state read before may be stale): the write applies only to records in `from`.
 */
export function onlyRowOf<S extends string, T extends S, F, X, E extends EventOf<F>>(
  table: TransitionTable<S, T, F, X>,
  event: E,
): Transition<S, T, E, F[E], X> {
  const rows = table.rows.filter((candidate) => candidate.event === event);
  if (rows.length !== 1) throw new Error(`The event "${event}" has ${rows.length} rows, not one`);
  return rows[0] as unknown as Transition<S, T, E, F[E], X>;
}

/** Refuses the move unless every guard of its row holds, checked in the row's order. */
export async function passGuards<F>(row: { guards: readonly Guard<F>[] }, facts: F): Promise<void> {
  for (const guard of row.guards) if (!(await guard.holds(facts))) throw guard.refusal(facts);
}

/** The row for this event from this state, once its guards hold on these facts. */
export async function decide<S extends string, T extends S, F, X, E extends EventOf<F>>(
  table: TransitionTable<S, T, F, X>,
  state: S,
  event: E,
  facts: F[E],
): Promise<Transition<S, T, E, F[E], X>> {
  const row = transitionFor(table, state, event, facts);
  await passGuards(row, facts);
  return row;
}

/** Every (state, event) pair no row allows, for the tests that prove each is refused. */
export function unlistedPairs<S extends string, T extends S, F, X>(table: TransitionTable<S, T, F, X>): [S, EventOf<F>][] {
  return table.states.flatMap((state) =>
    table.events.filter((event) => !table.rows.some((row) => row.event === event && row.from.includes(state))).map((event): [S, EventOf<F>] => [state, event]),
  );
}
