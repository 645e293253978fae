import { type AnyOperation, bindResource } from '@/lib/contract/operation';
import { startEnrollmentFromInvitation } from './invitations';
import * as contract from './invitation-enrollment.contract';

export const invitationEnrollmentOperations: AnyOperation[] = [
  bindResource(contract.startEnrollmentFromInvitation, ({ body, now, requestId }) => startEnrollmentFromInvitation(body.token, now, requestId)),
];
