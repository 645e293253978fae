/**
 * What every administrative change of an organization leaves behind, in the change's transaction:
 * its audit event (with the organization id) and, when it has one, its outbox event, whose payload
 * always names the organization (privacy-minimised: ids only).
 */
import { recordAudit, type AuditInput } from '@/lib/audit';
import type { Actor } from '@/lib/contract/actor';
import type { TenantActor } from '@/lib/contract/tenant';
import type { Executor } from '@/lib/db';
import { emitEvent, type EventType } from '@/lib/events';

export interface OrganizationChange<A extends string> {
  action: AuditInput<A>['action'];
  subject: { type: string; id: string };
  data?: AuditInput<A>['data'];
  event?: { type: EventType; payload: Record<string, string> };
}

export async function recordChange<A extends string>(
  tx: Executor,
  tenant: Pick<TenantActor, 'organizationId'>,
  actor: Actor,
  change: OrganizationChange<A>,
  now: Date,
  requestId: string,
): Promise<void> {
  const organizationId = tenant.organizationId;
  await recordAudit(tx, { action: change.action, outcome: 'success', actor, organizationId, subject: change.subject, requestId, data: change.data, at: now });
  if (change.event) await emitEvent(tx, change.event.type, { organization_id: organizationId, ...change.event.payload }, { organizationId }, now);
}
