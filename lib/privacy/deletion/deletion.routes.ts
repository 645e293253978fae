import { bindResource, result, type AnyOperation } from '@/lib/contract/operation';
import * as contract from './deletion.contract';
import { cancelDeletion, readDeletionRequest, requestDeletion } from './deletion';

export const deletionOperations: AnyOperation[] = [
  bindResource(contract.getDeletionRequest, ({ actor }) => readDeletionRequest(actor)),
  bindResource(contract.requestAccountDeletion, async ({ actor, now, requestId }) => result(await requestDeletion(actor, now, requestId), { status: 202 })),
  bindResource(contract.cancelAccountDeletion, ({ actor, now, requestId }) => cancelDeletion(actor, now, requestId)),
];
