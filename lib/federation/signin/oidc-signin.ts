/**
 * Federated sign-in through an organization's OpenID provider. Start creates a single-use transaction
 * (state, nonce, PKCE S256, bound to this browser by a cookie) and sends the browser to the provider;
 * the callback consumes it once, exchanges the code and validates the ID token (oidc-client.ts), then
 * checks what is ours to check: a verified e-mail under one of the connection's verified domains.
 * The callback never answers with an error body (spec, errors rule 4): every outcome is a redirect to
 * the sign-in page with one safe classification.
 */
import { createHash, randomBytes } from 'node:crypto';
import { recordAudit } from '@/lib/audit';
import { getConfig } from '@/lib/config';
import { ANONYMOUS, type SessionActor } from '@/lib/contract/actor';
import { serviceError } from '@/lib/contract/errors';
import type { SessionCookieInstruction } from '@/lib/contract/operation';
import { getDb, inTransaction } from '@/lib/db';
import { startSession } from '@/lib/accounts';
import { logLine, openSecret, sealSecret, shouldSweep } from '@/lib/platform';
import { federationCallbackUri } from '../connections/connections';
import { findConnectionAnywhere, type ConnectionRow } from '../connections/connections.repo';
import { domainOfEmail } from '../domains/domain-names';
import { classifyTokenFailure, openidClient, providerConfiguration, type TokenRefusal } from '../providers/oidc-client';
import { federatedPerson } from './just-in-time';
import { connectionServesDomain, consumeTransaction, deleteExpiredTransactions, findConnectionByUuid, insertTransaction } from './signin.repo';

const NONCE_PURPOSE = 'federation-nonce';
const VERIFIER_PURPOSE = 'federation-pkce-verifier';

/** Every result of a callback, as the sign-in page shows it (`/sign-in?federation=<classification>`). */
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
  'temporarily_unavailable',
] as const satisfies readonly (string | TokenRefusal)[];
export type FederationResult = (typeof FEDERATION_RESULTS)[number];

/** The cookie binding a transaction to the browser that started it (__Host- over HTTPS). */
export const bindingCookieName = () => (getConfig().secureCookies ? '__Host-federation' : 'federation');

function bindingCookie(value: string): string {
  const secure = getConfig().secureCookies;
  // Lax: the provider's redirect back is a top-level GET navigation, which Lax cookies accompany.
  return [
    `${bindingCookieName()}=${value}`,
    `Max-Age=${getConfig().ttl.federationTransaction}`,
    'Path=/',
    'HttpOnly',
    'SameSite=Lax',
    ...(secure ? ['Secure'] : []),
  ].join('; ');
}

const digest = (value: string) => createHash('sha256').update(value).digest('base64url');
const random = () => randomBytes(32).toString('base64url');

function assertGateOpen(): void {
  if (!getConfig().federationEnabled) throw serviceError('service_unavailable', 'Federated sign-in is switched off in this deployment.');
}

/** An active OIDC connection, or the one refusal for every other case (unknown, disabled, SAML). */
async function startableConnection(connectionId: string): Promise<ConnectionRow> {
  const connection = await findConnectionAnywhere(await getDb(), connectionId);
  if (!connection || connection.status !== 'active' || connection.protocol !== 'oidc') {
    throw serviceError('invalid_request', 'This sign-in connection is not available.');
  }
  return connection;
}

export async function startOidcSignIn(connectionId: string, now: Date): Promise<{ location: string; cookie: string }> {
  assertGateOpen();
  const connection = await startableConnection(connectionId);
  const oc = await openidClient();
  const config = await providerConfiguration(connection).catch(() => {
    throw serviceError('service_unavailable', "The organization's identity provider cannot be reached; try again later.");
  });
  const state = random();
  const nonce = random();
  const binding = random();
  const verifier = oc.randomPKCECodeVerifier();
  const db = await getDb();
  // Now and then a start clears the transactions nobody came back for.
  if (shouldSweep()) await deleteExpiredTransactions(db, now);
  await insertTransaction(db, {
    stateHash: digest(state),
    connectionId: connection.id,
    protocol: 'oidc',
    nonceSealed: sealSecret(nonce, NONCE_PURPOSE),
    codeVerifierSealed: sealSecret(verifier, VERIFIER_PURPOSE),
    browserBindingHash: digest(binding),
    createdAt: now,
    expiresAt: new Date(now.getTime() + getConfig().ttl.federationTransaction * 1000),
    consumedAt: null,
  });
  const url = oc.buildAuthorizationUrl(config, {
    redirect_uri: federationCallbackUri(),
    scope: (connection.scopes ?? ['openid', 'email']).join(' '),
    state,
    nonce,
    code_challenge: await oc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
  });
  return { location: url.href, cookie: bindingCookie(binding) };
}

export interface CallbackInput {
  query: Record<string, string | undefined>;
  bindingCookie: string | null;
  device: string;
  deviceBinding: () => string;
  presented: SessionActor | null;
  now: Date;
  requestId: string;
}

export interface CallbackOutcome {
  result: FederationResult;
  sessionCookie?: SessionCookieInstruction;
}

class Refused extends Error {
  constructor(readonly result: FederationResult) {
    super(result);
  }
}
const refuse = (result: FederationResult): never => {
  throw new Refused(result);
};

/** Consumes the transaction named by `state` (once, whatever happens next) and checks it is this browser's. */
async function consumedTransaction(input: CallbackInput) {
  const state = input.query.state;
  if (!state) return refuse('invalid_request');
  const transaction = await consumeTransaction(await getDb(), digest(state), input.now);
  if (!transaction || transaction.expiresAt <= input.now) return refuse('unknown_state');
  if (!input.bindingCookie || digest(input.bindingCookie) !== transaction.browserBindingHash) return refuse('browser_mismatch');
  if (input.query.error) return refuse('provider_error');
  if (!input.query.code) return refuse('invalid_request');
  const connection = await findConnectionByUuid(await getDb(), transaction.connectionId);
  if (!connection || connection.status !== 'active') return refuse('connection_disabled');
  return { transaction, connection, state };
}

/** The provider's answer to the code, validated, reduced to what we use. */
async function validatedClaims(input: CallbackInput, found: Awaited<ReturnType<typeof consumedTransaction>>) {
  const { transaction, connection, state } = found;
  const oc = await openidClient();
  const config = await providerConfiguration(connection).catch(() => refuse('provider_unreachable'));
  const callbackUrl = new URL(federationCallbackUri());
  for (const [name, value] of Object.entries(input.query)) if (value !== undefined) callbackUrl.searchParams.set(name, value);
  const tokens = await oc
    .authorizationCodeGrant(config, callbackUrl, {
      pkceCodeVerifier: openSecret(transaction.codeVerifierSealed!, VERIFIER_PURPOSE),
      expectedState: state,
      expectedNonce: openSecret(transaction.nonceSealed!, NONCE_PURPOSE),
      idTokenExpected: true,
    })
    .catch((error: unknown) => refuse(classifyTokenFailure(error)));
  const claims = tokens.claims()!;
  if (claims.email_verified !== true || typeof claims.email !== 'string') return refuse('unverified_email');
  const domain = domainOfEmail(claims.email);
  if (!domain || !(await connectionServesDomain(await getDb(), connection.id, domain))) return refuse('foreign_domain');
  return { subject: claims.sub, email: claims.email, name: typeof claims.name === 'string' ? claims.name : null };
}

export async function completeOidcSignIn(input: CallbackInput): Promise<CallbackOutcome> {
  try {
    if (!getConfig().federationEnabled) return refuse('federation_disabled');
    const found = await consumedTransaction(input);
    const claims = await validatedClaims(input, found);
    const { connection } = found;
    const issued = await inTransaction(async (tx) => {
      const person = await federatedPerson(tx, connection, claims, input.now, input.requestId);
      const session = await startSession(tx, {
        user: person.user,
        amr: ['fed'],
        device: input.device,
        binding: input.deviceBinding(),
        now: input.now,
        requestId: input.requestId,
        presented: input.presented,
      });
      await recordAudit(tx, {
        action: 'signin.federation',
        outcome: 'success',
        actor: ANONYMOUS,
        organizationId: connection.organizationId,
        subject: { type: 'user', id: person.user.id },
        requestId: input.requestId,
        data: { connection_id: connection.connectionId, account_created: person.accountCreated, membership: person.membership },
        at: input.now,
      });
      return session;
    });
    return { result: 'signed_in', sessionCookie: issued.cookie };
  } catch (error) {
    if (error instanceof Refused) {
      logLine('warn', 'federation_signin_refused', { result: error.result, request_id: input.requestId }, input.now);
      return { result: error.result };
    }
    // Even a fault of ours is a redirect with a classification, never an error body (errors rule 4).
    logLine('error', 'federation_signin_failed', { request_id: input.requestId, error: error instanceof Error ? error.name : typeof error }, input.now);
    return { result: 'temporarily_unavailable' };
  }
}
