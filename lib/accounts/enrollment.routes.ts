import { bindResource, type AnyOperation } from '@/lib/contract/operation';
import { completePasswordEnrollment, resendEnrollmentEmail, startEnrollment, verifyEnrollmentEmail } from './enrollment';
import * as contract from './enrollment.contract';

export const enrollmentOperations: AnyOperation[] = [
  bindResource(contract.startEnrollment, ({ body, now, requestId }) => startEnrollment(body.email, now, requestId)),
  bindResource(contract.verifyEnrollmentEmail, ({ actor, body, now, requestId }) => verifyEnrollmentEmail(actor, body.code, now, requestId)),
  bindResource(contract.resendEnrollmentEmail, ({ actor, now }) => resendEnrollmentEmail(actor, now)),
  bindResource(contract.completePasswordEnrollment, ({ actor, body, now, requestId }) =>
    completePasswordEnrollment(actor, { password: body.password, displayName: body.display_name }, now, requestId),
  ),
];
