/**
 * What an application may do with `identity.api_keys.create` (docs/decisions.md, Agent-created API
 * keys), from the provider's side: which scopes its keys may carry, whether the consent a key was
 * created under still lives, and the consent page's words for it. The keys themselves live in
 * lib/developer, which asks these questions.
 *
 * The rule for scopes: a key never carries a scope its client could not be granted itself, which is
 * the ceiling the service sets on the client, not what the client chose to ask for: the
 * self-registration ceiling for clients from POST /oauth/register (scope-ceiling.ts; a stock MCP
 * client registers with only the challenge's scopes, yet could register for the whole ceiling), the
 * operator-approved scopes (its `scope` metadata) for developer-portal applications.
 */
import { AGENT_API_KEY_MAX_DAYS, API_KEY_SCOPES, type ApiKeyScope } from '@/lib/contract/scopes';
import { getDb } from '@/lib/db';
import { findModel } from './adapter.repo';
import { getProvider } from './provider';
import { isSelfRegistered, SELF_REGISTRATION_SCOPES } from './scope-ceiling';
import { SCOPE_TABLE } from './scopes';

type ClientLike = { metadata(): Record<string, unknown> };

/** The API-key scopes a client may put on keys it creates: those it could be granted itself. */
export function apiKeyScopesOf(client: ClientLike): ApiKeyScope[] {
  return API_KEY_SCOPES.filter((s) => grantableTo(client).includes(s));
}

function grantableTo(client: ClientLike): readonly string[] {
  if (isSelfRegistered(client)) return SELF_REGISTRATION_SCOPES;
  const scope = client.metadata().scope;
  // An empty `scope` reads as "no restriction" to the provider: here it allows nothing.
  return typeof scope === 'string' ? scope.split(' ') : [];
}

/** The same for a client id; a client that no longer exists may put nothing on a key. */
export async function apiKeyScopesOfClient(clientId: string): Promise<ApiKeyScope[]> {
  const client = await (await getProvider()).Client.find(clientId);
  return client ? apiKeyScopesOf(client) : [];
}

/**
 * The consent an agent-created key was minted under still exists. Every way OAuth access ends
 * (the person's revocation, token revocation of the family, a disabled client, recovery or a
 * password change, expiry) removes the grant, so this one check covers them all.
 */
export async function grantIsLive(grantId: string, now: Date): Promise<boolean> {
  return (await grantExpiry(grantId, now)) !== undefined;
}

/** When a live grant expires by itself (null: never); undefined when it no longer exists. */
export async function grantExpiry(grantId: string, now: Date): Promise<Date | null | undefined> {
  const grant = await findModel(await getDb(), 'Grant', grantId, now);
  return grant ? grant.expiresAt : undefined;
}

/** The consent page's sentence for `identity.api_keys.create`, for this client. */
export function agentApiKeyConsentText(client: ClientLike): string {
  const scopes = apiKeyScopesOf(client);
  if (scopes.length === 0) return 'Create API keys on your account: this application may give them no permission at all, so it cannot create any';
  const allowed = scopes.map((scope) => SCOPE_TABLE.find((s) => s.scope === scope)?.description.replace(/^./, (c) => c.toLowerCase()) ?? scope);
  return `Create API keys on your account that expire after at most ${AGENT_API_KEY_MAX_DAYS} days, limited to: ${allowed.join('; ')}. They are revoked when you disconnect this application`;
}
