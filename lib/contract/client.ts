/**
 * Calling an operation from its wire contract: the request a call makes and the types of what goes in
 * and comes out, derived from the contract's zod schemas. Transport-free, so the hosted pages (same
 * origin, cookie session) and tests build their callers on the same rules.
 */
import type { z } from 'zod';
import type { CollectionContract, DelegatedContract, ResourceContract, Schema } from './wire';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any contract shape may be called
type CallableContract = ResourceContract<any, any, any, any, any, any> | CollectionContract<any, any, any, any, any, any> | DelegatedContract;

type InputPart<Key extends string, S, Required extends boolean> = S extends Schema
  ? Required extends true
    ? { [K in Key]: z.input<S> }
    : { [K in Key]?: z.input<S> }
  : { [K in Key]?: undefined };

/** What a call passes: path params and body when the contract has them, an optional query. */
export type CallInput<C> =
  C extends ResourceContract<infer P, infer Q, infer B, infer _R, infer _A, infer _T>
    ? InputPart<'params', P, true> & InputPart<'query', Q, false> & InputPart<'body', B, true>
    : C extends CollectionContract<infer P, infer Q, infer _I, infer _N, infer _A, infer _T>
      ? InputPart<'params', P, true> & InputPart<'query', Q, false> & { cursor?: string; limit?: number }
      : { body?: Record<string, string> };

/** The envelope every collection answers with (ARCHITECTURE.md, pagination). */
export type CollectionPage<N extends string, Item> = { [K in N]: Item[] } & { has_more: boolean; next_cursor: string | null };

/** What a successful call answers: the response schema's output, or the collection's envelope. */
export type CallOutput<C> =
  C extends ResourceContract<infer _P, infer _Q, infer _B, infer R, infer _A, infer _T>
    ? z.output<R>
    : C extends CollectionContract<infer _P, infer _Q, infer I, infer N, infer _A, infer _T>
      ? CollectionPage<N, z.output<I>>
      : unknown;

/** One item of a collection operation's answer (what a page names, e.g. a member). */
export type ItemOf<C> = C extends CollectionContract<infer _P, infer _Q, infer I, infer _N, infer _A, infer _T> ? z.output<I> : never;

export interface ContractRequest {
  method: string;
  /** Path and query, relative to the service origin. */
  url: string;
  /** JSON body, when the operation takes one. */
  body?: unknown;
}

/**
 * The request a call makes: path parameters substituted (each one percent-encoded), query values
 * that are set in declaration order, then `cursor` and `limit` for collections.
 */
export function requestOf<C extends CallableContract>(contract: C, input: CallInput<C>): ContractRequest {
  const given = input as { params?: Record<string, unknown>; query?: Record<string, unknown>; body?: unknown; cursor?: string; limit?: number };
  const path = contract.path.replace(/\{([^}]+)\}/g, (_match: string, name: string) => {
    const value = given.params?.[name];
    if (value === undefined || value === null || value === '') throw new Error(`${contract.id}: the path parameter ${name} is missing.`);
    return encodeURIComponent(String(value));
  });
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(given.query ?? {})) if (value !== undefined && value !== null) search.set(name, String(value));
  if (given.cursor) search.set('cursor', given.cursor);
  if (given.limit !== undefined) search.set('limit', String(given.limit));
  const query = search.toString();
  return { method: contract.method, url: query ? `${path}?${query}` : path, ...(given.body === undefined ? {} : { body: given.body }) };
}

/**
 * Where a gated change names its approved request (spec, approvals): the `approval_id` query member or
 * body field the contract declares; null when the operation is never gated.
 */
export function approvalSlot(contract: CallableContract): 'query' | 'body' | null {
  if (hasMember(contract.query, 'approval_id')) return 'query';
  if (contract.kind !== 'delegated' && hasMember((contract as { body?: Schema }).body, 'approval_id')) return 'body';
  return null;
}

function hasMember(schema: unknown, name: string): boolean {
  const shape = (schema as { shape?: Record<string, unknown> } | undefined)?.shape;
  return typeof shape === 'object' && shape !== null && name in shape;
}
