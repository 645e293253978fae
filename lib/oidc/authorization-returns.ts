/**
 * The way back to an untrusted client after an error (redirect-trust.ts): instead of redirecting,
 * the provider records where the error response would have gone, and our error page shows the
 * application and the host with a button the person may press. Records live 10 minutes in the
 * provider's store (their ids are hashed like every other); the page's URL carries only the id.
 */
import { randomBytes } from 'node:crypto';
import type { KoaContextWithOIDC } from 'oidc-provider';
import { serviceError } from '@/lib/contract/errors';
import { DrizzleAdapter } from './adapter';
import { requestParameters } from './redirect-trust';

const MODEL = 'AuthorizationReturn';
const TTL_SECONDS = 600;
/** The response modes this provider offers for the code flow (no JARM). */
const MODES = new Set(['query', 'fragment', 'form_post']);
/** What an error response carries to the client (RFC 6749 §4.1.2.1, RFC 9207 iss). */
const PARAMETERS = ['error', 'error_description', 'state', 'iss'] as const;

interface StoredReturn {
  clientId: string;
  clientName: string;
  redirectUri: string;
  responseMode: string;
  parameters: Record<string, string>;
}

const adapter = () => new DrizzleAdapter(MODEL);

/** Records the error response the provider would have redirected with; returns the record's id. */
export async function saveAuthorizationReturn(ctx: KoaContextWithOIDC, out: Record<string, unknown>): Promise<string> {
  const params = requestParameters(ctx);
  const client = ctx.oidc.client!;
  // As the provider resolves it: the requested mode, else fragment for token response types (OAuth 2.0 Multiple Response Types §5).
  const mode = typeof params.response_mode === 'string' && MODES.has(params.response_mode) ? params.response_mode : String(params.response_type ?? '').includes('token') ? 'fragment' : 'query';
  const parameters = Object.fromEntries(PARAMETERS.flatMap((name) => (typeof out[name] === 'string' ? [[name, out[name] as string]] : [])));
  const stored: StoredReturn = { clientId: client.clientId, clientName: client.clientName ?? client.clientId, redirectUri: String(params.redirect_uri), responseMode: mode, parameters };
  const id = randomBytes(18).toString('base64url');
  await adapter().upsert(id, stored as never, TTL_SECONDS);
  return id;
}

/** How the browser continues: a link (query or fragment response mode) or a form (form_post). */
function continuation({ redirectUri, responseMode, parameters }: StoredReturn) {
  if (responseMode === 'form_post') return { method: 'POST' as const, url: redirectUri, fields: parameters };
  const url = new URL(redirectUri);
  if (responseMode === 'fragment') url.hash = new URLSearchParams(parameters).toString();
  else for (const [name, value] of Object.entries(parameters)) url.searchParams.set(name, value);
  return { method: 'GET' as const, url: url.href, fields: {} };
}

export async function authorizationReturn(returnId: string) {
  const stored = (await adapter().find(returnId)) as StoredReturn | undefined;
  if (!stored) throw serviceError('not_found', 'This page has expired; start again from the application.');
  return {
    client: { client_id: stored.clientId, client_name: stored.clientName },
    redirect_host: new URL(stored.redirectUri).host,
    error: stored.parameters.error ?? 'server_error',
    continue_to: continuation(stored),
  };
}
