/**
 * API keys an application creates on the person's account (the MCP create_api_key tool, under the
 * consent to identity.api_keys.create): docs/decisions.md, Agent-created API keys. Such a key
 * - names the OAuth client and the grant (consent) it was created under, and authenticates only while
 *   that grant lives (api-keys.ts, resolveApiKey), whichever way the grant ended;
 * - expires after AGENT_API_KEY_MAX_DAYS by default and at most, and never after its grant (a later
 *   expiry is refused, never quietly shortened: the agent learns the limit);
 * - carries only scopes its client could be granted itself (lib/oidc, apiKeyScopesOfClient).
 * The portal's creation (a person with a recent step-up) keeps its own, wider rules.
 */
import type { Actor } from '@/lib/contract/actor';
import { serviceError } from '@/lib/contract/errors';
import { AGENT_API_KEY_MAX_DAYS, type ApiKeyScope } from '@/lib/contract/scopes';
import { apiKeyScopesOfClient, grantExpiry } from '@/lib/oidc';

export const AGENT_API_KEY_MAX_LIFETIME_MS = AGENT_API_KEY_MAX_DAYS * 24 * 60 * 60 * 1000;

/** The application and the consent a key is created through. */
export interface AgentOrigin {
  clientId: string;
  grantId: string;
}

/** Null for the person in the portal; an OAuth token's client and grant; anything else may not create keys. */
export function agentOriginOf(actor: Actor): AgentOrigin | null {
  if (actor.kind === 'session') return null;
  if (actor.kind === 'bearer' && actor.credential === 'oauth' && actor.clientId && actor.grantId) {
    return { clientId: actor.clientId, grantId: actor.grantId };
  }
  throw serviceError('forbidden', 'API keys are created by the person in the portal or by an application they authorized with identity.api_keys.create.');
}

/** The latest expiry a key may have, and the sentence that refuses a later one. */
export interface ExpiryBound {
  latest: Date;
  refusal: string;
}

/**
 * Checks an application's key request against its consent and client, and answers how long the key
 * may last. The consent must still live (a key created under an ended one would never authenticate),
 * and every scope must be one the client could be granted itself. The key lasts at most
 * AGENT_API_KEY_MAX_DAYS, and never past the end of its grant, so its expiry is never a promise the
 * consent behind it cannot keep.
 */
export async function agentKeyBound(origin: AgentOrigin, scopes: ApiKeyScope[], now: Date): Promise<ExpiryBound> {
  const grantEnds = await grantExpiry(origin.grantId, now);
  if (grantEnds === undefined) throw serviceError('unauthenticated', 'The authorization this application acts under has ended.');
  const allowed = await apiKeyScopesOfClient(origin.clientId);
  const beyond = scopes.filter((scope) => !allowed.includes(scope));
  if (beyond.length > 0) {
    const may = allowed.length ? `it may give its keys only ${allowed.join(', ')}` : 'it may give its keys no scope';
    throw serviceError('forbidden', `This application cannot be granted ${beyond.join(', ')} itself, so its API keys cannot carry it: ${may}.`);
  }
  const latest = new Date(now.getTime() + AGENT_API_KEY_MAX_LIFETIME_MS);
  if (grantEnds && grantEnds < latest) {
    return { latest: grantEnds, refusal: `An API key created by an application lasts at most until its authorization ends (${grantEnds.toISOString()}).` };
  }
  return { latest, refusal: `An API key created by an application lasts at most ${AGENT_API_KEY_MAX_DAYS} days.` };
}
