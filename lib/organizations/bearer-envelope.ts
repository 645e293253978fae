import type { Actor } from '@/lib/contract/actor';

/**
 * Bearer organization reads share their service functions with the browser lists; over a bearer
 * credential the collection envelope also names the credential kind and its scopes (spec, Collection
 * envelopes).
 */
export function bearerEnvelope(actor: Actor): Record<string, unknown> | undefined {
  return actor.kind === 'bearer' ? { authentication: actor.credential, scopes: actor.scopes } : undefined;
}
