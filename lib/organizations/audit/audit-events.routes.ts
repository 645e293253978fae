import { organizationAuditEvents } from '@/lib/audit';
import { bindCollection, type AnyOperation } from '@/lib/contract/operation';
import type { TenantActor } from '@/lib/contract/tenant';
import * as contract from './audit-events.contract';

const at = (value: string | undefined) => (value === undefined ? undefined : new Date(value));
/** Invited addresses are named only to readers who may see the invitations themselves. */
const readerScope = (tenant: TenantActor) => ({ organizationId: tenant.organizationId, invitees: tenant.permissions.has('invitations.manage') });

export const auditEventOperations: AnyOperation[] = [
  bindCollection(contract.listOrganizationAuditEvents, ({ tenant, query: q, page }) =>
    organizationAuditEvents(readerScope(tenant), { action: q.action, actorId: q.actor_id, from: at(q.from), to: at(q.to) }, page),
  ),
];
