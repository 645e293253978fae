/**
 * What every federated sign-in shares, whatever the protocol: the results it comes back with, the
 * cookie binding a transaction to the browser that started it, the checks that are ours (a verified
 * e-mail under one of the connection's verified domains), and the end: the person (just in time), our
 * session with amr `fed`, and the audit row. A refusal is a classification, never an error body
 * (spec, errors rule 4); so is a fault of ours.
 */
import { createHash, randomBytes } from 'node:crypto';
import { startSession } from '@/lib/accounts';
import { recordAudit } from '@/lib/audit';
import { getConfig } from '@/lib/config';
import { ANONYMOUS, type SessionActor } from '@/lib/contract/actor';
import type { SessionCookieInstruction } from '@/lib/contract/operation';
import { serviceError } from '@/lib/contract/errors';
import { getDb, inTransaction } from '@/lib/db';
import { logLine } from '@/lib/platform';
import { findConnectionAnywhere, type ConnectionRow } from '../connections/connections.repo';
import { domainOfEmail } from '../domains/domain-names';
import { federatedPerson, type FederatedClaims } from './just-in-time';
import { connectionServesDomain } from './signin.repo';

/** Every result of a federated sign-in, as the sign-in page shows it (`/sign-in?federation=<result>`). */
export const FEDERATION_RESULTS = [
  'signed_in',
  'invalid_request',
  'unknown_state',
  'browser_mismatch',
  'provider_error',
  'connection_disabled',
  'provider_unreachable',
  'unverified_email',
  'foreign_domain',
  'federation_disabled',
  'invalid_signature',
  'wrong_issuer',
  'wrong_audience',
  'wrong_nonce',
  'expired_token',
  'token_exchange_failed',
  // SAML
  'unsolicited_response',
  'invalid_response',
  'wrong_recipient',
  'wrong_destination',
  'replayed_assertion',
  'temporarily_unavailable',
] as const;
export type FederationResult = (typeof FEDERATION_RESULTS)[number];

export class Refused extends Error {
  constructor(readonly result: FederationResult) {
    super(result);
  }
}
export const refuse = (result: FederationResult): never => {
  throw new Refused(result);
};

/** The gates of federated sign-in: FEDERATION_ENABLED for every protocol, SAML_ENABLED besides for SAML. */
export function assertSignInOpen(protocol: 'oidc' | 'saml'): void {
  const config = getConfig();
  if (!config.federationEnabled) throw serviceError('service_unavailable', 'Federated sign-in is switched off in this deployment.');
  if (protocol === 'saml' && !config.samlEnabled) throw serviceError('service_unavailable', 'SAML sign-in is switched off in this deployment.');
}

/** An active connection of the protocol, or the one refusal for every other case (unknown, disabled, other protocol). */
export async function startableConnection(connectionId: string, protocol: 'oidc' | 'saml'): Promise<ConnectionRow> {
  const connection = await findConnectionAnywhere(await getDb(), connectionId);
  if (!connection || connection.status !== 'active' || connection.protocol !== protocol) {
    throw serviceError('invalid_request', 'This sign-in connection is not available.');
  }
  return connection;
}

export const digest = (value: string) => createHash('sha256').update(value).digest('base64url');
export const randomToken = () => randomBytes(32).toString('base64url');

/**
 * The cookie binding a transaction to its browser (__Host- over HTTPS, HttpOnly). `crossSitePost`: a
 * SAML response arrives as a cross-site form POST, which only SameSite=None cookies accompany (and
 * those need Secure; over plain http there is no such cookie, and the binding check then refuses).
 */
export function bindingCookieName(protocol: 'oidc' | 'saml'): string {
  const name = protocol === 'oidc' ? 'federation' : 'federation-saml';
  return getConfig().secureCookies ? `__Host-${name}` : name;
}

export function bindingCookie(protocol: 'oidc' | 'saml', value: string): string {
  const secure = getConfig().secureCookies;
  // Lax for OIDC: the provider's redirect back is a top-level GET navigation, which Lax cookies accompany.
  const sameSite = protocol === 'saml' && secure ? 'None' : 'Lax';
  const attributes = [`Max-Age=${getConfig().ttl.federationTransaction}`, 'Path=/', 'HttpOnly', `SameSite=${sameSite}`, ...(secure ? ['Secure'] : [])];
  return [`${bindingCookieName(protocol)}=${value}`, ...attributes].join('; ');
}

export function assertBrowser(presented: string | null, bindingHash: string): void {
  if (!presented || digest(presented) !== bindingHash) refuse('browser_mismatch');
}

/** Ours to check, whatever the protocol: the e-mail is under one of the connection's verified domains. */
export async function assertServedDomain(connection: ConnectionRow, email: string): Promise<void> {
  const domain = domainOfEmail(email);
  if (!domain || !(await connectionServesDomain(await getDb(), connection.id, domain))) refuse('foreign_domain');
}

export interface SignInContext {
  device: string;
  deviceBinding: () => string;
  presented: SessionActor | null;
  now: Date;
  requestId: string;
}

export interface FederationOutcome {
  result: FederationResult;
  sessionCookie?: SessionCookieInstruction;
}

/** The person, our session and the audit row, in one transaction. */
async function signIn(connection: ConnectionRow, claims: FederatedClaims, context: SignInContext): Promise<FederationOutcome> {
  const issued = await inTransaction(async (tx) => {
    const person = await federatedPerson(tx, connection, claims, context.now, context.requestId);
    const session = await startSession(tx, {
      user: person.user,
      amr: ['fed'],
      device: context.device,
      binding: context.deviceBinding(),
      now: context.now,
      requestId: context.requestId,
      presented: context.presented,
    });
    await recordAudit(tx, {
      action: 'signin.federation',
      outcome: 'success',
      actor: ANONYMOUS,
      organizationId: connection.organizationId,
      subject: { type: 'user', id: person.user.id },
      requestId: context.requestId,
      data: { connection_id: connection.connectionId, account_created: person.accountCreated, membership: person.membership },
      at: context.now,
    });
    return session;
  });
  return { result: 'signed_in', sessionCookie: issued.cookie };
}

/**
 * Runs a protocol's validation (`validated`: the connection and the person's claims, or a refusal)
 * and signs the person in; every failure becomes its classification, logged with the request id.
 */
export async function completeFederatedSignIn(
  context: SignInContext,
  validated: () => Promise<{ connection: ConnectionRow; claims: FederatedClaims }>,
): Promise<FederationOutcome> {
  try {
    if (!getConfig().federationEnabled) return refuse('federation_disabled');
    const { connection, claims } = await validated();
    return await signIn(connection, claims, context);
  } catch (error) {
    if (error instanceof Refused) {
      logLine('warn', 'federation_signin_refused', { result: error.result, request_id: context.requestId }, context.now);
      return { result: error.result };
    }
    logLine('error', 'federation_signin_failed', { request_id: context.requestId, error: error instanceof Error ? error.name : typeof error }, context.now);
    return { result: 'temporarily_unavailable' };
  }
}
