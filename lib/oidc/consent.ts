/**
 * The hosted consent step. node-oidc-provider sends the browser to /consent/{interaction_id}; the
 * page reads the request through `authorizationContext`, and the person's decision is recorded on the
 * interaction (`decide`). The browser then resumes at the provider, which issues the code. Login comes
 * from our session: it is the only truth for who signed in, when (auth_time) and how (amr).
 */
import { recordAudit } from '@/lib/audit';
import type { SessionActor } from '@/lib/contract/actor';
import { serviceError } from '@/lib/contract/errors';
import { AGENT_API_KEY_MAX_DAYS } from '@/lib/contract/scopes';
import { getDb } from '@/lib/db';
import { sessionRecord } from '@/lib/sessions';
import { agentApiKeyConsentText, apiKeyScopesOf } from './agent-api-keys';
import { validateAuthorizationRequest, type AuthorizationRequest } from './authorization-request';
import {
  approvingSignIn,
  assertOrganizationSessionPolicies,
  organizationChoice,
  organizationOfGrant,
  organizationToBind,
  recordBinding,
} from './organization-binding';
import { getProvider } from './provider';
import { isSelfRegistered } from './scope-ceiling';
import { findApiResourceServer, type ApiResourceServer } from './api-resource-servers';
import { describeScopes } from './scopes';

async function liveInteraction(interactionId: string) {
  const provider = await getProvider();
  const interaction = await provider.Interaction.find(interactionId);
  if (!interaction || interaction.isExpired) throw serviceError('not_found', 'This sign-in request has expired; start again from the application.');
  return { provider, interaction };
}

type Interaction = Awaited<ReturnType<typeof liveInteraction>>['interaction'];

/**
 * The earliest sign-in that satisfies the request (OIDC Core 3.1.2.1): `prompt=login` wants a sign-in
 * after the request began, `max_age` one at most that many seconds old. Null: any live session will do.
 */
export function signInRequiredAfter(interaction: Pick<Interaction, 'iat' | 'prompt' | 'params'>, now: Date): Date | null {
  const bounds: number[] = [];
  // The provider records the request time in whole seconds: a sign-in within that second counts.
  if (interaction.prompt.reasons.includes('login_prompt')) bounds.push(interaction.iat * 1000);
  const maxAge = Number((interaction.params as Record<string, unknown>).max_age);
  if (Number.isInteger(maxAge) && maxAge >= 0) bounds.push(now.getTime() - maxAge * 1000);
  return bounds.length ? new Date(Math.max(...bounds)) : null;
}

const API_KEYS_CREATE = 'identity.api_keys.create';

/**
 * When the request includes identity.api_keys.create: the terms of the keys this client could create
 * (docs/decisions.md, Agent-created API keys), which the consent page states; null otherwise.
 */
function agentApiKeyTerms(client: { metadata(): Record<string, unknown> }, scope: string) {
  if (!scope.split(' ').includes(API_KEYS_CREATE)) return null;
  return { max_lifetime_days: AGENT_API_KEY_MAX_DAYS, scopes: apiKeyScopesOf(client), revoked_with_consent: true as const };
}

/** The developer's API a request names, if any: the consent page names it and its permissions. */
async function requestedApi(resource: unknown): Promise<ApiResourceServer | null> {
  return typeof resource === 'string' ? findApiResourceServer(resource) : null;
}

/** A scope in plain words: ours from the scope table, an API's permission in its owner's words. */
function describeRequested(scope: string, api: ApiResourceServer | null) {
  return describeScopes(scope).map((s) => {
    const permission = api?.permissions.find((p) => p.name === s.scope);
    return permission ? { scope: s.scope, description: permission.description } : s;
  });
}

function contextOf(
  interactionId: string | null,
  client: { clientId: string; clientName?: string; metadata(): Record<string, unknown> },
  request: Pick<AuthorizationRequest, 'redirectUri' | 'scope' | 'resource'>,
  extra: { prompt: string | null; signInAfter: Date | null; api: ApiResourceServer | null },
) {
  return {
    interaction_id: interactionId,
    // A self-registered client's name is its own claim: the consent page says nobody vouched for it.
    client: { client_id: client.clientId, client_name: client.clientName ?? client.clientId, self_registered: isSelfRegistered(client) },
    redirect_host: new URL(request.redirectUri).host,
    scopes: describeRequested(request.scope, extra.api).map((s) => (s.scope === API_KEYS_CREATE ? { ...s, description: agentApiKeyConsentText(client) } : s)),
    api_keys: agentApiKeyTerms(client, request.scope),
    resource: request.resource ?? null,
    api: extra.api ? { identifier: extra.api.identifier, name: extra.api.name } : null,
    prompt: extra.prompt,
    sign_in_after: extra.signInAfter?.toISOString() ?? null,
  };
}

/** What a pending interaction asks for, or (without one) what raw authorization parameters would ask for. */
export async function authorizationContext(query: { interaction_id?: string } & Record<string, string | undefined>, now: Date) {
  if (!query.interaction_id) {
    const { client, request, api } = await validateAuthorizationRequest(query);
    return contextOf(null, client, request, { prompt: null, signInAfter: null, api });
  }
  const { provider, interaction } = await liveInteraction(query.interaction_id);
  const params = interaction.params as Record<string, string | undefined>;
  const client = await provider.Client.find(params.client_id ?? '');
  if (!client) throw serviceError('not_found', 'The application is no longer registered.');
  const request = { redirectUri: params.redirect_uri ?? client.redirectUris?.[0] ?? 'about:blank', scope: params.scope ?? '', resource: params.resource };
  return contextOf(interaction.uid, client, request, {
    prompt: interaction.prompt.name,
    signInAfter: signInRequiredAfter(interaction, now),
    api: await requestedApi(request.resource),
  });
}

/**
 * Another person signed in to this browser since the provider's session began (its cookie still names
 * the earlier account). That session is no sign-in of ours any more: it ends, and the interaction
 * forgets it, so the provider signs the new person in on resume instead of answering with a form that
 * asks to log the earlier person out (end_session, which this service does not serve).
 */
async function detachOtherPersonsSession(provider: Awaited<ReturnType<typeof getProvider>>, interaction: Interaction, userId: string): Promise<void> {
  const session = interaction.session as { accountId?: string; cookie?: string } | undefined;
  if (!session?.accountId || session.accountId === userId) return;
  if (session.cookie) await (await provider.Session.find(session.cookie))?.destroy();
  interaction.session = undefined;
}

/** The organizations the consent page offers for a pending request (organization-binding.ts). */
export async function consentOrganizations(actor: SessionActor, interactionId: string) {
  const { interaction } = await liveInteraction(interactionId);
  return organizationChoice(actor.userId, interaction.params as Record<string, unknown>);
}

export async function decide(
  actor: SessionActor,
  interactionId: string,
  decision: 'approve' | 'deny',
  now: Date,
  requestId: string,
  choice: { organizationId?: string; deviceBinding?: () => string } = {},
) {
  const { provider, interaction } = await liveInteraction(interactionId);
  const params = interaction.params as Record<string, string | undefined>;
  const clientId = params.client_id ?? '';
  let organizationId: string | null = null;
  if (decision === 'deny') {
    interaction.result = { error: 'access_denied', error_description: 'The person declined the request.' };
  } else {
    // An organization scope binds the authorization to one organization the person is an active member of.
    organizationId = await organizationToBind(actor.userId, params, choice.organizationId);
    if (organizationId) await assertOrganizationSessionPolicies(organizationId, actor, choice.deviceBinding ?? (() => ''), now);
    const session = await sessionRecord(actor.sessionId);
    if (!session) throw serviceError('unauthenticated', 'Sign in first.');
    const after = signInRequiredAfter(interaction, now);
    if (after && session.authenticatedAt < after) {
      throw serviceError('reauthentication_required', 'The application asks you to sign in again before you answer.', {
        extras: { sign_in_after: after.toISOString() },
      });
    }
    await detachOtherPersonsSession(provider, interaction, actor.userId);
    // The interaction names the grant of whoever the provider's session knew: only this person's own
    // grant for this client is extended, never someone else's.
    // A grant bound to another organization (or to none) is never extended: its tokens would change binding.
    const existing = interaction.grantId ? await provider.Grant.find(interaction.grantId) : undefined;
    const extendable = existing?.accountId === actor.userId && existing.clientId === clientId && (await organizationOfGrant(existing.jti)) === organizationId;
    const grant = extendable ? existing : new provider.Grant({ accountId: actor.userId, clientId });
    // Everything requested is granted as asked: scopes (offline_access only ever through this
    // consent) and, when present, the resource it was asked for (RFC 8707).
    if (params.scope) grant.addOIDCScope(params.scope);
    if (params.resource && params.scope) grant.addResourceScope(params.resource, params.scope);
    const grantId = await grant.save();
    // The sign-in that approved it goes with the binding: the organization's policies judge the tokens by it.
    if (organizationId) await recordBinding(grantId, organizationId, approvingSignIn(actor), actor.userId, now);
    interaction.result = {
      // The provider's login time is our session's authentication time: session-truth.ts and
      // endProviderSessions rely on it to tie the provider's session to this sign-in.
      login: { accountId: actor.userId, amr: session.amr, ts: Math.floor(session.authenticatedAt.getTime() / 1000), remember: false },
      consent: { grantId },
    };
  }
  await interaction.save(Math.max(1, (interaction.exp ?? 0) - Math.floor(Date.now() / 1000)));
  await recordAudit(await getDb(), {
    action: 'oauth.consent',
    outcome: decision === 'approve' ? 'success' : 'failure',
    actor,
    subject: { type: 'oauth_client', id: clientId },
    requestId,
    data: { decision },
    // An organization-bound authorization shows in that organization's audit log.
    organizationId,
    at: now,
  });
  return { redirect_to: interaction.returnTo };
}
