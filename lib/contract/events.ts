/**
 * The event catalogue: every domain event type the service writes to its outbox (payloads are listed
 * in docs/decisions.md). Operations declare which of these they emit (`emits`), the outbox writer
 * accepts only these, and the contract tests hold the two together.
 */
export const EVENT_TYPES = [
  'identity.user.created',
  'identity.user.updated',
  'identity.password.changed',
  'identity.passkey.added',
  'identity.passkey.removed',
  'identity.session.revoked',
  'identity.organization.created',
  'identity.organization.member.added',
  'identity.organization.member.updated',
  'identity.organization.member.removed',
  'identity.organization.invitation.created',
  'identity.organization.invitation.accepted',
  'identity.organization.group.created',
  'identity.organization.group.updated',
  'identity.organization.group.deleted',
  'identity.organization.group.member.added',
  'identity.organization.group.member.removed',
  'identity.organization.role.created',
  'identity.organization.role.updated',
  'identity.organization.role.deleted',
  'identity.organization.domain.verified',
  'identity.organization.federation.connection.activated',
  'identity.organization.federation.connection.disabled',
  'identity.organization.directory.user.provisioned',
  'identity.organization.directory.user.updated',
  'identity.organization.directory.user.deactivated',
  'identity.organization.directory.user.reactivated',
  'identity.organization.directory.user.deprovisioned',
  'identity.organization.application.assigned',
  'identity.organization.application.unassigned',
  'identity.application.created',
  'identity.application.updated',
  'identity.application.secret_rotated',
  'identity.application.disabled',
  'identity.api_resource.created',
  'identity.api_resource.updated',
  'identity.api_resource.deleted',
  'identity.api_resource.machine_access.updated',
  'identity.api_key.created',
  'identity.api_key.revoked',
  'identity.privacy.deletion.requested',
  'identity.privacy.deletion.cancelled',
  'identity.privacy.deletion.completed',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/**
 * Events written by work that is not an operation of the registry (none yet: e.g. a sweep or a
 * scheduled job), each with the reason; the contract test accepts an event no operation declares only
 * when it is listed here.
 */
export const INTERNAL_EVENTS: Partial<Record<EventType, string>> = {
  'identity.privacy.deletion.completed': 'written by the operator command that completes a deletion request (npm run privacy:review), not by an operation',
};
