/**
 * The bearer collection envelope (spec, Collection envelopes): a collection read over a bearer
 * credential also names the credential kind and its scopes. It follows from the operation's
 * declaration (a collection whose auth term is `bearer`), so the edge adds it to every such page and
 * the services return the same pages to browser and bearer lists.
 */
import { actorOfKind, type Actor } from '@/lib/contract/actor';
import type { AnyOperation } from '@/lib/contract/operation';

export function bearerEnvelope(op: AnyOperation, actor: Actor): { authentication?: string; scopes?: string[] } {
  if (op.kind !== 'collection' || op.auth.kind !== 'bearer') return {};
  // The pipeline authenticated the caller with the declared term, so the actor is a bearer one.
  const bearer = actorOfKind(actor, 'bearer');
  return { authentication: bearer.credential, scopes: bearer.scopes };
}
