/**
 * The way back to an untrusted client after an error (redirect-trust.ts): instead of redirecting,
 * the provider describes where the error response would have gone, and our error page shows the
 * application and the host with a button the person may press. The description travels sealed
 * (AES-256-GCM under DATA_ENCRYPTION_KEY, purpose-bound) in the error page's URL and expires after
 * 10 minutes: nobody can forge one (our page never offers a way back we did not compute), and a
 * refused authorization request writes nothing, so anonymous floods of bad requests cost no storage.
 */
import type { KoaContextWithOIDC } from 'oidc-provider';
import { serviceError } from '@/lib/contract/errors';
import { openSecret, sealSecret } from '@/lib/platform';
import { requestParameters } from './redirect-trust';

const PURPOSE = 'oauth-authorization-return';
const TTL_SECONDS = 600;
/** The response modes this provider offers for the code flow (no JARM). */
const MODES = new Set(['query', 'fragment', 'form_post']);
/** What an error response carries to the client (RFC 6749 §4.1.2.1, RFC 9207 iss). */
const PARAMETERS = ['error', 'error_description', 'state', 'iss'] as const;

interface StoredReturn {
  /** Expiry, seconds since the epoch. */
  exp: number;
  clientId: string;
  clientName: string;
  redirectUri: string;
  responseMode: string;
  parameters: Record<string, string>;
}

/** Seals the error response the provider would have redirected with, for the error page's URL. */
export function sealAuthorizationReturn(ctx: KoaContextWithOIDC, out: Record<string, unknown>, now: Date): string {
  const params = requestParameters(ctx);
  const client = ctx.oidc.client!;
  // As the provider resolves it: the requested mode, else fragment for token response types (OAuth 2.0 Multiple Response Types §5).
  const mode =
    typeof params.response_mode === 'string' && MODES.has(params.response_mode)
      ? params.response_mode
      : String(params.response_type ?? '').includes('token')
        ? 'fragment'
        : 'query';
  const parameters = Object.fromEntries(PARAMETERS.flatMap((name) => (typeof out[name] === 'string' ? [[name, out[name] as string]] : [])));
  const stored: StoredReturn = {
    exp: Math.floor(now.getTime() / 1000) + TTL_SECONDS,
    clientId: client.clientId,
    clientName: client.clientName ?? client.clientId,
    redirectUri: String(params.redirect_uri),
    responseMode: mode,
    parameters,
  };
  return sealSecret(JSON.stringify(stored), PURPOSE);
}

function opened(sealed: string, now: Date): StoredReturn | null {
  try {
    const stored = JSON.parse(openSecret(sealed, PURPOSE)) as StoredReturn;
    return stored.exp * 1000 > now.getTime() ? stored : null;
  } catch {
    return null;
  }
}

/** How the browser continues: a link (query or fragment response mode) or a form (form_post). */
function continuation({ redirectUri, responseMode, parameters }: StoredReturn) {
  if (responseMode === 'form_post') return { method: 'POST' as const, url: redirectUri, fields: parameters };
  const url = new URL(redirectUri);
  if (responseMode === 'fragment') url.hash = new URLSearchParams(parameters).toString();
  else for (const [name, value] of Object.entries(parameters)) url.searchParams.set(name, value);
  return { method: 'GET' as const, url: url.href, fields: {} };
}

export async function authorizationReturn(sealed: string, now: Date) {
  const stored = opened(sealed, now);
  if (!stored) throw serviceError('not_found', 'This page has expired; start again from the application.');
  return {
    client: { client_id: stored.clientId, client_name: stored.clientName },
    redirect_host: new URL(stored.redirectUri).host,
    error: stored.parameters.error ?? 'server_error',
    continue_to: continuation(stored),
  };
}
