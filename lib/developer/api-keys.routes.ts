import { bindCollection, bindResource, type AnyOperation } from '@/lib/contract/operation';
import * as contract from './api-keys.contract';
import { createApiKey, listOwnApiKeys, revokeApiKey } from './api-keys';

export const apiKeyOperations: AnyOperation[] = [
  bindCollection(contract.listApiKeys, ({ actor, page, now }) => listOwnApiKeys(actor, page, now)),
  bindResource(contract.createApiKey, ({ actor, body, now, requestId }) => createApiKey(actor, body, now, requestId)),
  bindResource(contract.revokeApiKey, ({ actor, body, now, requestId }) => revokeApiKey(actor, body.api_key_id, now, requestId)),
  bindCollection(contract.listBearerApiKeys, ({ actor, page, now }) => listOwnApiKeys(actor, page, now)),
];
