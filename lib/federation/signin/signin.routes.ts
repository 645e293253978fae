import { bindDelegated, bindResource, result, type AnyOperation, type HandlerContext } from '@/lib/contract/operation';
import { countSignIn } from '@/lib/platform';
import { serveSpMetadata } from '../saml/metadata-endpoint';
import * as contract from './signin.contract';
import { discoverConnection } from './discovery';
import { bindingCookieName, type FederationOutcome, type SignInContext } from './federated-session';
import { completeOidcSignIn, startOidcSignIn } from './oidc-signin';
import { completeSamlSignIn, startSamlSignIn } from './saml-signin';

/** A start: the browser goes to the provider, holding the cookie that binds the transaction to it. */
const toProvider = ({ location, cookie }: { location: string; cookie: string }) =>
  result({ redirect_to: location }, { headers: { Location: location, 'Set-Cookie': cookie } });

/**
 * Every federated sign-in ends on the sign-in page with its classification (and, signed in, the
 * session). The redirect hides the outcome from the pipeline's sign-in count, so it is counted here.
 */
function landing(outcome: FederationOutcome) {
  countSignIn('federation', outcome.result === 'signed_in' ? 'success' : 'failure');
  const location = `/sign-in?federation=${outcome.result}`;
  return result({ redirect_to: location }, { headers: { Location: location }, sessionCookie: outcome.sessionCookie });
}

/** What a sign-in needs of the request, and the binding cookie of its protocol. */
function signInContext(ctx: HandlerContext<unknown, unknown, unknown>, protocol: 'oidc' | 'saml'): SignInContext & { bindingCookie: string | null } {
  const { device, deviceBinding, presentedSession: presented, now, requestId } = ctx;
  return { device, deviceBinding, presented, now, requestId, bindingCookie: ctx.cookie(bindingCookieName(protocol)) };
}

export const federationSignInOperations: AnyOperation[] = [
  bindResource(contract.discoverFederation, ({ query }) => discoverConnection(query.email)),
  bindResource(contract.startOidcFederation, async ({ query, now }) => toProvider(await startOidcSignIn(query.connection_id, now))),
  bindResource(contract.completeOidcFederation, async (ctx) => landing(await completeOidcSignIn({ ...signInContext(ctx, 'oidc'), query: ctx.query }))),
  bindResource(contract.startSamlFederation, async ({ query, now }) => toProvider(await startSamlSignIn(query.connection_id, now))),
  bindResource(contract.completeSamlFederation, async (ctx) =>
    landing(await completeSamlSignIn({ ...signInContext(ctx, 'saml'), samlResponse: ctx.body.SAMLResponse })),
  ),
  bindDelegated(contract.getSamlServiceProviderMetadata, { webHandler: async () => serveSpMetadata }),
];
