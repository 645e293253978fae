import { bindResource, type AnyOperation } from '@/lib/contract/operation';
import * as contract from './status.contract';
import { authStatus, capabilityDetail, capabilityMatrix, health, readiness, rehearsal } from './status.service';

/** The per-capability endpoints, in the matrix's order, each answering its capability (capabilities.ts). */
const capabilityOps = [
  bindResource(contract.getEmailCapabilities, () => capabilityDetail('email')),
  bindResource(contract.getEnrollmentCapabilities, () => capabilityDetail('enrollment')),
  bindResource(contract.getVerificationCapabilities, () => capabilityDetail('verification')),
  bindResource(contract.getPasskeysCapabilities, () => capabilityDetail('passkeys')),
  bindResource(contract.getPasswordCapabilities, () => capabilityDetail('password')),
  bindResource(contract.getEmailOtpCapabilities, () => capabilityDetail('email_otp')),
  bindResource(contract.getSessionCapabilities, () => capabilityDetail('session')),
  bindResource(contract.getRecoveryCapabilities, () => capabilityDetail('recovery')),
  bindResource(contract.getInteractionCapabilities, () => capabilityDetail('interaction')),
  bindResource(contract.getAuthorizationCapabilities, () => capabilityDetail('authorization')),
  bindResource(contract.getFederationCapabilities, () => capabilityDetail('federation')),
];

export const statusOperations: AnyOperation[] = [
  bindResource(contract.getHealth, health),
  bindResource(contract.getAuthStatus, authStatus),
  ...capabilityOps,
  bindResource(contract.getCapabilities, capabilityMatrix),
  bindResource(contract.getReadiness, readiness),
  bindResource(contract.getRehearsal, rehearsal),
];
