/**
 * The provider's Client records of developer-portal applications, written and removed inside the
 * caller's transaction (beside the application's own row), so the provider and the owner's view never
 * disagree. Portal clients are a trusted registration path: their redirect URIs are trusted
 * (redirect-trust.ts) and they carry no self-registration marker; their `scope` metadata is the
 * application's APPROVED scopes, so the provider itself refuses anything else (invalid_scope).
 */
import type { Executor } from '@/lib/db';
import { destroyClientArtefacts, destroyModel, upsertModel } from './adapter.repo';
import { concealPayload, storageId } from './model-secrets';
import { TRUSTED_REDIRECTS_PROPERTY } from './redirect-trust';

export interface PortalClient {
  clientId: string;
  name: string;
  clientType: 'confidential' | 'public';
  redirectUris: string[];
  grantTypes: string[];
  approvedScopes: string[];
  /** SHA-256 of the client secret (client-secret.ts); null for public clients. */
  secretHash: string | null;
}

/** The client metadata the provider reads (RFC 7591 names). */
export function portalClientMetadata(client: PortalClient): Record<string, unknown> {
  // An empty scope list would mean "any scope" to the provider: never written (see `usable`).
  if (client.approvedScopes.length === 0) throw new Error(`portal client ${client.clientId} has no approved scope`);
  const confidential = client.clientType === 'confidential';
  return {
    client_id: client.clientId,
    client_name: client.name,
    application_type: 'web',
    // Confidential: HTTP Basic (or the form); never client_secret_jwt, which needs the plain secret.
    token_endpoint_auth_method: confidential ? 'client_secret_basic' : 'none',
    ...(confidential ? { client_secret: client.secretHash } : {}),
    // Client credentials give a confidential client nothing until an API's owner grants it machine
    // access (api-resource-servers.ts): no resource, or one it has no permission of, is invalid_target.
    grant_types: confidential ? [...client.grantTypes, 'client_credentials'] : client.grantTypes,
    response_types: ['code'],
    redirect_uris: client.redirectUris,
    scope: client.approvedScopes.join(' '),
    [TRUSTED_REDIRECTS_PROPERTY]: true,
  };
}

/**
 * Whether the provider may know the client now. A confidential client without a secret yet
 * (registered over the bearer surface) may not; nor may a client with no approved scope at all: the
 * provider reads an empty `scope` metadata as "no restriction", which would open every scope.
 */
function usable(client: PortalClient): boolean {
  return client.approvedScopes.length > 0 && (client.clientType === 'public' || client.secretHash !== null);
}

/**
 * Writes (or rewrites) the provider's record of a portal client, or removes it while the client is
 * not usable (see `usable`): the provider then answers invalid_client.
 */
export async function writePortalClient(tx: Executor, client: PortalClient): Promise<void> {
  if (!usable(client)) {
    await destroyModel(tx, 'Client', storageId('Client', client.clientId));
    return;
  }
  await upsertModel(tx, {
    model: 'Client',
    id: storageId('Client', client.clientId),
    payload: concealPayload('Client', client.clientId, portalClientMetadata(client)),
    grantId: null,
    uid: null,
    userCode: null,
    expiresAt: null,
  });
}

/**
 * A disabled application: the provider's record goes (invalid_client from then on), and so does
 * everything the client holds: grants, codes, access and refresh tokens, pending interactions.
 */
export async function removePortalClient(tx: Executor, clientId: string): Promise<number> {
  await destroyModel(tx, 'Client', storageId('Client', clientId));
  return destroyClientArtefacts(tx, clientId);
}
