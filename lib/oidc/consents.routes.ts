import { bindResource, type AnyOperation } from '@/lib/contract/operation';
import { revokeGrantApiKeys } from '@/lib/developer';
import * as contract from './consents.contract';
import { consentsOf, revokeConsent } from './consents';

export const consentOperations: AnyOperation[] = [
  bindResource(contract.listConsents, async ({ actor, now }) => ({ consents: await consentsOf(actor.userId, now) })),
  bindResource(contract.revokeConsent, ({ actor, body, now, requestId }) =>
    revokeConsent(actor, body.grant_id, now, requestId, (tx, grantId) => revokeGrantApiKeys(tx, actor, grantId, now, requestId)),
  ),
];
