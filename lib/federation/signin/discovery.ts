/**
 * Federation discovery for the hosted sign-in: does an active connection serve the e-mail's verified
 * domain? The answer has the same shape either way and names only the connection to start with,
 * never the organization or anything of the provider.
 */
import { getConfig } from '@/lib/config';
import { getDb } from '@/lib/db';
import { domainOfEmail } from '../domains/domain-names';
import { assertSignInOpen } from './federated-session';
import { activeConnectionForDomain } from './signin.repo';

export async function discoverConnection(email: string) {
  assertSignInOpen('oidc');
  const domain = domainOfEmail(email);
  const connection = domain ? await activeConnectionForDomain(await getDb(), domain) : null;
  // SAML connections are offered only while SAML execution is switched on.
  if (!connection || (connection.protocol === 'saml' && !getConfig().samlEnabled)) return { connection_id: null };
  return { connection_id: connection.connectionId, protocol: connection.protocol, display_name: connection.displayName };
}
