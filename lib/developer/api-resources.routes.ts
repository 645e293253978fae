import { bindCollection, bindResource, type AnyOperation } from '@/lib/contract/operation';
import {
  createApiResource,
  deleteOwnApiResource,
  getOwnApiResource,
  listApiMachineAccess,
  listOwnApiResources,
  setApiMachineAccess,
  updateOwnApiResource,
} from './api-resources';
import * as contract from './api-resources.contract';

export const apiResourceOperations: AnyOperation[] = [
  bindCollection(contract.listApiResources, ({ actor, page }) => listOwnApiResources(actor, page)),
  bindResource(contract.createApiResource, ({ actor, body, now, requestId }) => createApiResource(actor, body, now, requestId)),
  bindResource(contract.getApiResource, ({ actor, params: p }) => getOwnApiResource(actor, p.api_resource_id)),
  bindResource(contract.updateApiResource, ({ actor, params: p, body, now, requestId }) =>
    updateOwnApiResource(actor, p.api_resource_id, body, now, requestId),
  ),
  bindResource(contract.deleteApiResource, ({ actor, params: p, now, requestId }) => deleteOwnApiResource(actor, p.api_resource_id, now, requestId)),
  bindCollection(contract.listMachineAccess, ({ actor, params: p, page }) => listApiMachineAccess(actor, p.api_resource_id, page)),
  bindResource(contract.setMachineAccess, ({ actor, params: p, body, now, requestId }) => setApiMachineAccess(actor, p.api_resource_id, body, now, requestId)),
  bindCollection(contract.listBearerApiResources, ({ actor, page }) => listOwnApiResources(actor, page)),
  bindResource(contract.createBearerApiResource, ({ actor, body, now, requestId }) => createApiResource(actor, body, now, requestId)),
];
