import { bindCollection, bindResource, type AnyOperation } from '@/lib/contract/operation';
import * as contract from './connections.contract';
import { changeConnection, connectionHealth, deleteConnectionOf, listConnectionsOf, registerConnection } from './connections';

export const connectionOperations: AnyOperation[] = [
  bindCollection(contract.listFederationConnections, ({ tenant, page }) => listConnectionsOf(tenant, page)),
  bindResource(contract.registerFederationConnection, ({ tenant, actor, body, now, requestId }) => registerConnection(tenant, actor, body, now, requestId)),
  bindResource(contract.changeFederationConnection, ({ tenant, actor, params, body, now, requestId }) =>
    changeConnection(tenant, actor, params.connection_id, body, now, requestId),
  ),
  bindResource(contract.deleteFederationConnection, ({ tenant, actor, params, now, requestId }) =>
    deleteConnectionOf(tenant, actor, params.connection_id, now, requestId),
  ),
  bindResource(contract.checkFederationConnectionHealth, ({ tenant, params, now }) => connectionHealth(tenant, params.connection_id, now)),
];
