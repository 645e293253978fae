/**
 * Federated sign-in through an organization's SAML identity provider, behind its own gate
 * (SAML_ENABLED, off by default). Start stores a single-use transaction keyed by the AuthnRequest's
 * ID and bound to the browser, then redirects to the IdP. The ACS finds the transaction by the
 * response's InResponseTo (a response without one, IdP-initiated, is refused), consumes it, lets
 * node-saml verify the response against that connection only, then checks what node-saml leaves to
 * us: the assertion's Issuer is the IdP's entity id, Destination and Recipient are our ACS, the assertion was never seen before (replay table until
 * its NotOnOrAfter), and the e-mail is under one of the connection's verified domains.
 */
import { randomBytes } from 'node:crypto';
import { getConfig } from '@/lib/config';
import { getDb } from '@/lib/db';
import { assertionFacts, responseEnvelope } from '../saml/assertion';
import { acsUrl, samlFor } from '../saml/service-provider';
import {
  assertBrowser,
  assertServedDomain,
  assertSignInOpen,
  bindingCookie,
  completeFederatedSignIn,
  digest,
  randomToken,
  refuse,
  startableConnection,
  type FederationOutcome,
  type FederationResult,
  type SignInContext,
} from './federated-session';
import { consumeTransaction, findConnectionByUuid, insertTransaction, recordAssertion } from './signin.repo';

/** SAML responses are small; a bigger one is refused before it is decoded. */
export const MAX_SAML_RESPONSE_CHARS = 256 * 1024;

export async function startSamlSignIn(connectionId: string, now: Date): Promise<{ location: string; cookie: string }> {
  assertSignInOpen('saml');
  const connection = await startableConnection(connectionId, 'saml');
  // An xsd:ID starts with a letter or underscore.
  const requestId = `_${randomBytes(20).toString('hex')}`;
  const binding = randomToken();
  await insertTransaction(await getDb(), {
    stateHash: digest(requestId),
    connectionId: connection.id,
    protocol: 'saml',
    nonceSealed: null,
    codeVerifierSealed: null,
    browserBindingHash: digest(binding),
    createdAt: now,
    expiresAt: new Date(now.getTime() + getConfig().ttl.federationTransaction * 1000),
    consumedAt: null,
  });
  const location = await samlFor(connection, { id: requestId, issuedAt: now }).getAuthorizeUrlAsync('', undefined, {});
  return { location, cookie: bindingCookie('saml', binding) };
}

/** What a node-saml refusal means, as a safe classification. */
function classifySamlFailure(error: unknown): FederationResult {
  const message = error instanceof Error ? error.message : '';
  if (error instanceof Error && error.name === 'SamlStatusError') return 'provider_error';
  if (/signature|multiple assertions/i.test(message)) return 'invalid_signature';
  if (/audience/i.test(message)) return 'wrong_audience';
  if (/issuer/i.test(message)) return 'wrong_issuer';
  // node-saml judges the subject confirmation by its time window (InResponseTo has its own messages).
  if (/expired|not yet valid|too old|no valid subject confirmation/i.test(message)) return 'expired_token';
  if (/InResponseTo/i.test(message)) return 'unknown_state';
  return 'invalid_response';
}

export interface AcsInput extends SignInContext {
  samlResponse: string | undefined;
  bindingCookie: string | null;
}

async function validated(input: AcsInput) {
  if (!getConfig().samlEnabled) return refuse('federation_disabled');
  const encoded = input.samlResponse;
  if (!encoded || encoded.length > MAX_SAML_RESPONSE_CHARS) return refuse('invalid_request');
  const envelope = responseEnvelope(Buffer.from(encoded, 'base64').toString('utf8'));
  if (!envelope) return refuse('invalid_response');
  if (!envelope.inResponseTo) return refuse('unsolicited_response');
  const transaction = await consumeTransaction(await getDb(), digest(envelope.inResponseTo), input.now);
  if (!transaction || transaction.protocol !== 'saml' || transaction.expiresAt <= input.now) return refuse('unknown_state');
  assertBrowser(input.bindingCookie, transaction.browserBindingHash);
  const connection = await findConnectionByUuid(await getDb(), transaction.connectionId);
  if (!connection || connection.status !== 'active' || connection.protocol !== 'saml') return refuse('connection_disabled');
  if (envelope.destination !== null && envelope.destination !== acsUrl()) return refuse('wrong_destination');
  const saml = samlFor(connection, { id: envelope.inResponseTo, issuedAt: transaction.createdAt });
  const { profile } = await saml.validatePostResponseAsync({ SAMLResponse: encoded }).catch((error: unknown) => refuse(classifySamlFailure(error)));
  const facts = profile?.getAssertionXml ? assertionFacts(profile.getAssertionXml()) : null;
  if (!facts) return refuse('invalid_response');
  if (facts.issuer !== connection.samlIdpEntityId) return refuse('wrong_issuer');
  if (facts.recipients.length === 0 || facts.recipients.some((recipient) => recipient !== acsUrl())) return refuse('wrong_recipient');
  const expiresAt = facts.notOnOrAfter ?? new Date(input.now.getTime() + getConfig().ttl.federationTransaction * 1000);
  if (!(await recordAssertion(await getDb(), { assertionIdHash: digest(`${connection.id}:${facts.id}`), connectionId: connection.id, expiresAt }, input.now))) {
    return refuse('replayed_assertion');
  }
  if (!facts.email) return refuse('unverified_email');
  await assertServedDomain(connection, facts.email);
  return { connection, claims: { subject: facts.subject, email: facts.email, name: facts.name } };
}

export function completeSamlSignIn(input: AcsInput): Promise<FederationOutcome> {
  return completeFederatedSignIn(input, () => validated(input));
}
