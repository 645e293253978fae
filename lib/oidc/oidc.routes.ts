import { bindDelegated, bindResource, result, type AnyOperation } from '@/lib/contract/operation';
import { authorizationReturn } from './authorization-returns';
import { authorizationContext, consentOrganizations, decide } from './consent';
import * as contract from './oidc.contract';
import { formPostAuthorizationHandler, gatedProviderHandler, introspectionHandler, providerHandler, resumeHandler, revocationHandler } from './provider';
import { apiResource, mcpResource, protectedResourceMetadata } from './resources';

export const oidcOperations: AnyOperation[] = [
  bindDelegated(contract.authorize, { nodeHandler: gatedProviderHandler }),
  bindDelegated(contract.authorizeByFormPost, { nodeHandler: formPostAuthorizationHandler }),
  bindDelegated(contract.resumeAuthorization, { nodeHandler: resumeHandler }),
  bindResource(contract.getAuthorizationContext, ({ query, now }) => authorizationContext(query, now)),
  bindResource(contract.getAuthorizationOrganizations, ({ actor, query }) => consentOrganizations(actor, query.interaction_id)),
  bindResource(contract.getAuthorizationReturn, ({ query, now }) => authorizationReturn(query.return_id, now)),
  // interaction_id tells the decision apart from a form-POST authorization request (authorizeByFormPost).
  bindResource(contract.decideAuthorization, async ({ actor, body, now, requestId, bodyFormat, deviceBinding }) => {
    const decision = await decide(actor, body.interaction_id, body.decision, now, requestId, {
      organizationId: body.organization_id,
      deviceBinding,
    });
    // A plain HTML form gets the redirect itself; JSON callers navigate on their own.
    return bodyFormat === 'form' ? result(decision, { status: 303, headers: { Location: decision.redirect_to } }) : decision;
  }),
  bindDelegated(contract.token, { nodeHandler: gatedProviderHandler }),
  bindDelegated(contract.userinfo, { nodeHandler: gatedProviderHandler }),
  bindDelegated(contract.revoke, { nodeHandler: revocationHandler }),
  bindDelegated(contract.introspect, { nodeHandler: introspectionHandler }),
  bindDelegated(contract.getOpenIdConfiguration, { nodeHandler: providerHandler }),
  bindDelegated(contract.getOAuthAuthorizationServerMetadata, { nodeHandler: providerHandler }),
  bindDelegated(contract.getJwks, { nodeHandler: providerHandler }),
  bindDelegated(contract.registerClient, { nodeHandler: gatedProviderHandler }),
  bindResource(contract.getProtectedResourceMetadata, async () => protectedResourceMetadata(mcpResource)),
  bindResource(contract.getApiProtectedResourceMetadata, async () => protectedResourceMetadata(apiResource)),
];
