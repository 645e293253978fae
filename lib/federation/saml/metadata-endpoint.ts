/**
 * GET /api/auth/federation/saml/{connection_id}/metadata: a SAML connection's SP metadata as XML (a
 * delegated operation: the answer is a document, not the API's JSON). Registered connections answer
 * too, since the admin configures the IdP before activating; OIDC and unknown ids are not found.
 */
import { getDb } from '@/lib/db';
import { findConnectionAnywhere } from '../connections/connections.repo';
import { spMetadata } from './service-provider';

const notFound = (requestId: string) =>
  new Response(JSON.stringify({ type: 'about:blank#not_found', title: 'The resource does not exist', status: 404, code: 'not_found', request_id: requestId }), {
    status: 404,
    headers: { 'content-type': 'application/problem+json' },
  });

export async function serveSpMetadata(request: Request, context: { requestId: string }): Promise<Response> {
  const match = /\/saml\/([^/]+)\/metadata$/.exec(new URL(request.url).pathname);
  const connectionId = match ? decodeURIComponent(match[1]!) : '';
  const connection = connectionId ? await findConnectionAnywhere(await getDb(), connectionId) : null;
  if (!connection || connection.protocol !== 'saml') return notFound(context.requestId);
  return new Response(spMetadata(connection), {
    status: 200,
    headers: { 'content-type': 'application/samlmetadata+xml; charset=utf-8', 'cache-control': 'no-store' },
  });
}
