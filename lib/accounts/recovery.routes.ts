import { bindResource, type AnyOperation } from '@/lib/contract/operation';
import { completePasswordRecovery, resendRecoveryCode, startRecovery, verifyRecovery } from './recovery';
import * as contract from './recovery.contract';

export const recoveryOperations: AnyOperation[] = [
  bindResource(contract.startRecovery, ({ body, now, requestId }) => startRecovery(body.email, now, requestId)),
  bindResource(contract.resendRecoveryCode, ({ actor, now }) => resendRecoveryCode(actor, now)),
  bindResource(contract.verifyRecovery, ({ actor, body, now, requestId }) => verifyRecovery(actor, body.code, now, requestId)),
  bindResource(contract.completePasswordRecovery, ({ actor, body, now, requestId }) => completePasswordRecovery(actor, body.password, now, requestId)),
];
