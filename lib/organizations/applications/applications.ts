/**
 * Organization application assignments (spec, Organization administration): which applications an
 * organization lets its members use when its `applications.assigned_only` policy is on (enforced by
 * lib/oidc at consent and refresh). Assigning takes an enabled application's client id (any owner's:
 * client ids are public); an assignment that was disabled is made active again. DELETE disables the
 * assignment and ends the organization's bound grants of that application in the same transaction.
 */
import type { Actor } from '@/lib/contract/actor';
import { serviceError } from '@/lib/contract/errors';
import type { Page, PageRequest } from '@/lib/contract/operation';
import type { TenantActor } from '@/lib/contract/tenant';
import { getDb, inTransaction } from '@/lib/db';
import { toPage } from '@/lib/db/keyset';
import { endOrganizationClientGrants } from '@/lib/oidc';
import { activateAssignment, disableAssignment, findAssignment, findEnabledApplication, listAssignments, type AssignmentRow } from './applications.repo';
import { recordChange } from '../change-record';

export function assignmentView(row: AssignmentRow) {
  return { application_id: row.id, client_id: row.clientId, name: row.name, status: row.status, created_at: row.createdAt.toISOString() };
}

const noSuchAssignment = () => serviceError('not_found', 'This application is not assigned to this organization.');

export async function listAssignmentsOf(tenant: TenantActor, page: PageRequest): Promise<Page<ReturnType<typeof assignmentView>>> {
  const result = toPage(await listAssignments(await getDb(), tenant.organizationId, page.after, page.limit + 1), page);
  return { ...result, items: result.items.map(assignmentView) };
}

export async function assignApplication(tenant: TenantActor, actor: Actor, input: { client_id: string }, now: Date, requestId: string) {
  const row = await inTransaction(async (tx) => {
    const application = await findEnabledApplication(tx, input.client_id);
    if (!application) {
      throw serviceError('not_found', 'No enabled application has this client_id.', {
        extras: { errors: [{ path: 'body.client_id', message: 'No enabled application has this client_id.' }] },
      });
    }
    const existing = await findAssignment(tx, tenant.organizationId, application.id);
    if (existing?.status === 'active') throw serviceError('conflict', 'This application is already assigned to the organization.');
    await activateAssignment(tx, {
      organizationId: tenant.organizationId,
      applicationId: application.id,
      assignedBy: 'userId' in actor ? actor.userId : null,
      now,
    });
    await recordChange(
      tx,
      tenant,
      actor,
      {
        action: 'organization.application.assigned',
        subject: { type: 'application', id: application.id },
        data: { client_id: application.clientId },
        event: { type: 'identity.organization.application.assigned', payload: { application_id: application.id, client_id: application.clientId } },
      },
      now,
      requestId,
    );
    return { ...application, status: 'active' as const, createdAt: existing?.createdAt ?? now };
  });
  return assignmentView(row);
}

export async function unassignApplication(tenant: TenantActor, actor: Actor, applicationId: string, now: Date, requestId: string) {
  await inTransaction(async (tx) => {
    const existing = await findAssignment(tx, tenant.organizationId, applicationId);
    if (!existing) throw noSuchAssignment();
    if (existing.status === 'disabled') throw serviceError('conflict', 'This assignment is already disabled.');
    await disableAssignment(tx, tenant.organizationId, applicationId, now);
    const revoked = await endOrganizationClientGrants(tx, tenant.organizationId, existing.clientId);
    await recordChange(
      tx,
      tenant,
      actor,
      {
        action: 'organization.application.unassigned',
        subject: { type: 'application', id: applicationId },
        data: { client_id: existing.clientId, grants_revoked: revoked },
        event: { type: 'identity.organization.application.unassigned', payload: { application_id: applicationId, client_id: existing.clientId } },
      },
      now,
      requestId,
    );
  });
  return { application_id: applicationId, status: 'disabled' as const };
}
