import { bindResource, type AnyOperation } from '@/lib/contract/operation';
import { changePassword, passwordStatus } from './password-change';
import * as contract from './password.contract';

export const passwordOperations: AnyOperation[] = [
  bindResource(contract.getPasswordStatus, ({ actor }) => passwordStatus(actor)),
  bindResource(contract.changePassword, ({ actor, body, now, requestId }) =>
    changePassword(actor, { currentPassword: body.current_password, newPassword: body.new_password }, now, requestId),
  ),
];
