import { organizationAuditEvents } from '@/lib/audit';
import { bindCollection, type AnyOperation } from '@/lib/contract/operation';
import * as contract from './audit-events.contract';

const at = (value: string | undefined) => (value === undefined ? undefined : new Date(value));

export const auditEventOperations: AnyOperation[] = [
  bindCollection(contract.listOrganizationAuditEvents, ({ tenant, query: q, page }) =>
    organizationAuditEvents(tenant.organizationId, { action: q.action, actorId: q.actor_id, from: at(q.from), to: at(q.to) }, page),
  ),
];
