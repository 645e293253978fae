import { bindCollection, bindResource, type AnyOperation } from '@/lib/contract/operation';
import * as contract from './tokens.contract';
import { issueScimToken, listScimTokensOf, revokeScimTokenOf } from './tokens';

export const scimTokenOperations: AnyOperation[] = [
  bindCollection(contract.listScimTokens, ({ tenant, page }) => listScimTokensOf(tenant, page)),
  bindResource(contract.issueScimToken, ({ tenant, actor, body, now, requestId }) => issueScimToken(tenant, actor, body, now, requestId)),
  bindResource(contract.revokeScimToken, ({ tenant, actor, params, now, requestId }) => revokeScimTokenOf(tenant, actor, params.token_id, now, requestId)),
];
