/**
 * GET /api/auth/federation/saml/{connection_id}/metadata: a SAML connection's SP metadata as XML (a
 * delegated operation: the answer is a document, not the API's JSON). Registered connections answer
 * too, since the admin configures the IdP before activating; OIDC and unknown ids are not found.
 */
import { serviceError } from '@/lib/contract/errors';
import { getDb } from '@/lib/db';
import { findConnectionAnywhere } from '../connections/connections.repo';
import { spMetadata } from './service-provider';

/** A refusal is thrown: the pipeline answers it in the API's problem format, like any other. */
export async function serveSpMetadata(request: Request): Promise<Response> {
  const match = /\/saml\/([^/]+)\/metadata$/.exec(new URL(request.url).pathname);
  const connectionId = match ? decodeURIComponent(match[1]!) : '';
  const connection = connectionId ? await findConnectionAnywhere(await getDb(), connectionId) : null;
  if (!connection || connection.protocol !== 'saml') throw serviceError('not_found', 'No SAML connection has this connection_id.');
  return new Response(spMetadata(connection), {
    status: 200,
    headers: { 'content-type': 'application/samlmetadata+xml; charset=utf-8', 'cache-control': 'no-store' },
  });
}
