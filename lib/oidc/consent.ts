/**
 * The hosted consent step. node-oidc-provider sends the browser to /consent/{interaction_id}; the
 * page reads the request through `authorizationContext`, and the person's decision is recorded on the
 * interaction (`decide`). The browser then resumes at the provider, which issues the code. Login comes
 * from our session: it is the only truth for who signed in, when (auth_time) and how (amr).
 */
import { recordAudit } from '@/lib/audit/audit';
import type { SessionActor } from '@/lib/contract/actor';
import { serviceError } from '@/lib/contract/errors';
import { getDb } from '@/lib/db';
import { findSession } from '@/lib/sessions/sessions.repo';
import { getProvider } from './provider';
import { SCOPE_TABLE } from './scopes';

async function liveInteraction(interactionId: string) {
  const provider = await getProvider();
  const interaction = await provider.Interaction.find(interactionId);
  if (!interaction || interaction.isExpired) throw serviceError('not_found', 'This sign-in request has expired; start again from the application.');
  return { provider, interaction };
}

export async function authorizationContext(interactionId: string) {
  const { provider, interaction } = await liveInteraction(interactionId);
  const params = interaction.params as Record<string, string | undefined>;
  const client = await provider.Client.find(params.client_id ?? '');
  if (!client) throw serviceError('not_found', 'The application is no longer registered.');
  const requested = (params.scope ?? '').split(' ').filter(Boolean);
  return {
    interaction_id: interaction.uid,
    client: { client_id: client.clientId, client_name: client.clientName ?? client.clientId },
    redirect_host: new URL(params.redirect_uri ?? client.redirectUris?.[0] ?? 'about:blank').host,
    scopes: requested.map((scope) => ({ scope, description: SCOPE_TABLE.find((s) => s.scope === scope)?.description ?? scope })),
    resource: params.resource ?? null,
    prompt: interaction.prompt.name,
  };
}

export async function decide(actor: SessionActor, interactionId: string, decision: 'approve' | 'deny', now: Date, requestId: string) {
  const { provider, interaction } = await liveInteraction(interactionId);
  const params = interaction.params as Record<string, string | undefined>;
  const clientId = params.client_id ?? '';
  if (decision === 'deny') {
    interaction.result = { error: 'access_denied', error_description: 'The person declined the request.' };
  } else {
    const session = await findSession(await getDb(), actor.sessionId);
    if (!session) throw serviceError('unauthenticated', 'Sign in first.');
    const grant = interaction.grantId
      ? ((await provider.Grant.find(interaction.grantId)) ?? new provider.Grant({ accountId: actor.userId, clientId }))
      : new provider.Grant({ accountId: actor.userId, clientId });
    // Everything requested is granted as asked: scopes (offline_access only ever through this
    // consent) and, when present, the resource it was asked for.
    if (params.scope) grant.addOIDCScope(params.scope);
    if (params.resource && params.scope) grant.addResourceScope(params.resource, params.scope);
    const grantId = await grant.save();
    interaction.result = {
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
    at: now,
  });
  return { redirect_to: interaction.returnTo };
}
