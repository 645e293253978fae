import { type AnyOperation, bindCollection, bindResource } from '@/lib/contract/operation';
import { listOrganizationAgentActions, registerAgentAction } from './agent-actions';
import * as contract from './agent-actions.contract';

export const agentActionOperations: AnyOperation[] = [
  bindCollection(contract.listOrganizationAgentActions, ({ tenant, page }) => listOrganizationAgentActions(tenant, page)),
  bindResource(contract.registerOrganizationAgentAction, ({ actor, tenant, body, now, requestId }) => registerAgentAction(tenant, actor, body, now, requestId)),
  bindCollection(contract.listBearerOrganizationAgentActions, ({ tenant, page }) => listOrganizationAgentActions(tenant, page)),
];
