/** The audit trail: written inside each use case's transaction, privacy-minimised once, here. */
export { activityOf, eraseAuditPersonalData, recordAudit, type AuditInput } from './audit';
export { AUDIT_ACTIONS, type AuditAction } from './actions';
