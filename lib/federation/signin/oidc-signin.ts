/**
 * Federated sign-in through an organization's OpenID provider. Start creates a single-use transaction
 * (state, nonce, PKCE S256, bound to this browser by a cookie) and sends the browser to the provider;
 * the callback consumes it once, exchanges the code and validates the ID token (oidc-client.ts), then
 * checks what is ours to check: a verified e-mail under one of the connection's verified domains.
 * The callback never answers with an error body (spec, errors rule 4): every outcome is a redirect to
 * the sign-in page with one safe classification.
 */
import { getConfig } from '@/lib/config';
import { serviceError } from '@/lib/contract/errors';
import { getDb } from '@/lib/db';
import { openSecret, sealSecret, shouldSweep } from '@/lib/platform';
import { federationCallbackUri } from '../connections/connections';
import { classifyTokenFailure, openidClient, providerConfiguration } from '../providers/oidc-client';
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
  type SignInContext,
} from './federated-session';
import { consumeTransaction, deleteExpiredTransactions, findConnectionByUuid, insertTransaction } from './signin.repo';

const NONCE_PURPOSE = 'federation-nonce';
const VERIFIER_PURPOSE = 'federation-pkce-verifier';

export async function startOidcSignIn(connectionId: string, now: Date): Promise<{ location: string; cookie: string }> {
  assertSignInOpen('oidc');
  const connection = await startableConnection(connectionId, 'oidc');
  const oc = await openidClient();
  const config = await providerConfiguration(connection).catch(() => {
    throw serviceError('service_unavailable', "The organization's identity provider cannot be reached; try again later.");
  });
  const state = randomToken();
  const nonce = randomToken();
  const binding = randomToken();
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
  return { location: url.href, cookie: bindingCookie('oidc', binding) };
}

export interface CallbackInput extends SignInContext {
  query: Record<string, string | undefined>;
  bindingCookie: string | null;
}

/** Consumes the transaction named by `state` (once, whatever happens next) and checks it is this browser's. */
async function consumedTransaction(input: CallbackInput) {
  const state = input.query.state;
  if (!state) return refuse('invalid_request');
  const transaction = await consumeTransaction(await getDb(), digest(state), input.now);
  if (!transaction || transaction.expiresAt <= input.now) return refuse('unknown_state');
  assertBrowser(input.bindingCookie, transaction.browserBindingHash);
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
  await assertServedDomain(connection, claims.email);
  return { subject: claims.sub, email: claims.email, name: typeof claims.name === 'string' ? claims.name : null };
}

export function completeOidcSignIn(input: CallbackInput): Promise<FederationOutcome> {
  return completeFederatedSignIn(input, async () => {
    const found = await consumedTransaction(input);
    return { connection: found.connection, claims: await validatedClaims(input, found) };
  });
}
