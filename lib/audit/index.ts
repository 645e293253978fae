/** The audit trail: written inside each use case's transaction, privacy-minimised once, here. */
export {
  activityOf,
  auditEventView,
  changesOf,
  type AuditChange,
  DEVELOPER_ACTION_PREFIXES,
  developerAuditEvents,
  eraseAuditPersonalData,
  organizationAuditEvents,
  recordAudit,
  type AuditInput,
  type OrganizationAuditFilter,
} from './audit';
export { AUDIT_ACTIONS, type AuditAction } from './actions';
export type { OrganizationScope } from './subject-labels.repo';
