import { bindResource, result, type AnyOperation } from '@/lib/contract/operation';
import * as contract from './signin.contract';
import { discoverConnection } from './discovery';
import { bindingCookieName, completeOidcSignIn, startOidcSignIn } from './oidc-signin';

export const federationSignInOperations: AnyOperation[] = [
  bindResource(contract.discoverFederation, ({ query }) => discoverConnection(query.email)),
  bindResource(contract.startOidcFederation, async ({ query, now }) => {
    const { location, cookie } = await startOidcSignIn(query.connection_id, now);
    return result({ redirect_to: location }, { headers: { Location: location, 'Set-Cookie': cookie } });
  }),
  bindResource(contract.completeOidcFederation, async (ctx) => {
    const outcome = await completeOidcSignIn({
      query: ctx.query,
      bindingCookie: ctx.cookie(bindingCookieName()),
      device: ctx.device,
      deviceBinding: ctx.deviceBinding,
      presented: ctx.presentedSession,
      now: ctx.now,
      requestId: ctx.requestId,
    });
    const location = `/sign-in?federation=${outcome.result}`;
    return result({ redirect_to: location }, { headers: { Location: location }, sessionCookie: outcome.sessionCookie });
  }),
];
