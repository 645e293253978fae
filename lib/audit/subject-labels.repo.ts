import { and, eq, inArray } from 'drizzle-orm';
import { isUuid } from '@/lib/contract/ids';
import type { Executor } from '@/lib/db';
import {
  agentActions,
  apiKeys,
  approvals,
  delegatedAdminGrants,
  developerApplications,
  groups,
  invitations,
  memberships,
  organizationRoles,
  organizations,
  users,
  webhookSubscriptions,
} from '@/lib/db/schema';

/** `type:id` → what people call it. */
export type Labels = Map<string, string>;
export const labelKey = (type: string, id: string) => `${type}:${id}`;

export interface Reference {
  type: string;
  id: string;
}

/** The uuid ids of one type among the references (other ids can name no row of a uuid table). */
function idsOf(refs: readonly Reference[], ...types: string[]): string[] {
  return [...new Set(refs.filter((ref) => types.includes(ref.type) && isUuid(ref.id)).map((ref) => ref.id))];
}

function put(labels: Labels, type: string, rows: { id: string; label: string | null }[]) {
  for (const row of rows) if (row.label) labels.set(labelKey(type, row.id), row.label);
}

/** Built from WebhookSubscription URLs: the host only (a path or query may carry a receiver's token). */
function hostOf(url: string): string | null {
  try {
    return new URL(url).host;
  } catch {
    return null;
  }
}

export interface OrganizationScope {
  organizationId: string;
  /** Whether invited addresses may be shown (the reader manages invitations). */
  invitees: boolean;
}

/**
 * Names of the parties of one organization's audit events, read now, inside that organization only:
 * people (users and memberships) by their address, provided they are or were members of it; roles,
 * groups, invitations, delegations, approvals and catalogued actions by their rows of this
 * organization; applications by their registered name. What no longer exists has no label.
 */
export async function organizationLabels(db: Executor, refs: readonly Reference[], scope: OrganizationScope): Promise<Labels> {
  const labels: Labels = new Map();
  const org = scope.organizationId;
  const people = idsOf(refs, 'user');
  const membershipIds = idsOf(refs, 'membership');
  const delegationIds = idsOf(refs, 'delegation');
  const tasks: Promise<void>[] = [];

  if (people.length > 0)
    tasks.push(
      db
        .selectDistinct({ id: users.id, label: users.email })
        .from(memberships)
        .innerJoin(users, eq(users.id, memberships.userId))
        .where(and(eq(memberships.organizationId, org), inArray(memberships.userId, people)))
        .then((rows) => put(labels, 'user', rows)),
    );
  if (membershipIds.length > 0)
    tasks.push(
      db
        .select({ id: memberships.id, label: users.email })
        .from(memberships)
        .innerJoin(users, eq(users.id, memberships.userId))
        .where(and(eq(memberships.organizationId, org), inArray(memberships.id, membershipIds)))
        .then((rows) => put(labels, 'membership', rows)),
    );
  if (delegationIds.length > 0)
    tasks.push(
      db
        .select({ id: delegatedAdminGrants.id, label: users.email })
        .from(delegatedAdminGrants)
        .innerJoin(memberships, eq(memberships.id, delegatedAdminGrants.membershipId))
        .innerJoin(users, eq(users.id, memberships.userId))
        .where(and(eq(delegatedAdminGrants.organizationId, org), inArray(delegatedAdminGrants.id, delegationIds)))
        .then((rows) => put(labels, 'delegation', rows)),
    );
  const simple = [
    { type: 'role', table: organizationRoles, label: organizationRoles.name },
    { type: 'group', table: groups, label: groups.name },
    { type: 'agent_action', table: agentActions, label: agentActions.name },
    ...(scope.invitees ? [{ type: 'invitation', table: invitations, label: invitations.email }] : []),
  ] as const;
  for (const { type, table, label } of simple) {
    const ids = idsOf(refs, type);
    if (ids.length > 0)
      tasks.push(
        db
          .select({ id: table.id, label })
          .from(table)
          .where(and(eq(table.organizationId, org), inArray(table.id, ids)))
          .then((rows) => put(labels, type, rows)),
      );
  }
  const approvalIds = idsOf(refs, 'approval');
  if (approvalIds.length > 0)
    tasks.push(
      db
        .select({ id: approvals.id, action: approvals.action, target: approvals.target })
        .from(approvals)
        .where(and(eq(approvals.organizationId, org), inArray(approvals.id, approvalIds)))
        .then((rows) =>
          put(
            labels,
            'approval',
            rows.map((row) => ({ id: row.id, label: `${row.action} on ${row.target}` })),
          ),
        ),
    );
  if (refs.some((ref) => ref.type === 'organization' && ref.id === org))
    tasks.push(
      db
        .select({ id: organizations.id, label: organizations.name })
        .from(organizations)
        .where(eq(organizations.id, org))
        .then((rows) => put(labels, 'organization', rows)),
    );
  // Applications are the service's OAuth clients: their names are shown to everyone who consents.
  const applicationIds = idsOf(refs, 'application');
  if (applicationIds.length > 0)
    tasks.push(
      db
        .select({ id: developerApplications.id, label: developerApplications.name })
        .from(developerApplications)
        .where(inArray(developerApplications.id, applicationIds))
        .then((rows) => put(labels, 'application', rows)),
    );
  await Promise.all(tasks);
  return labels;
}

/** Names of a developer's own API keys, applications and webhooks (another person's are never named). */
export async function developerLabels(db: Executor, refs: readonly Reference[], userId: string): Promise<Labels> {
  const labels: Labels = new Map();
  const tasks: Promise<void>[] = [];
  const keyIds = idsOf(refs, 'api_key');
  if (keyIds.length > 0)
    tasks.push(
      db
        .select({ id: apiKeys.id, label: apiKeys.name })
        .from(apiKeys)
        .where(and(eq(apiKeys.userId, userId), inArray(apiKeys.id, keyIds)))
        .then((rows) => put(labels, 'api_key', rows)),
    );
  const applicationIds = idsOf(refs, 'application');
  if (applicationIds.length > 0)
    tasks.push(
      db
        .select({ id: developerApplications.id, label: developerApplications.name })
        .from(developerApplications)
        .where(and(eq(developerApplications.userId, userId), inArray(developerApplications.id, applicationIds)))
        .then((rows) => put(labels, 'application', rows)),
    );
  const webhookIds = idsOf(refs, 'webhook');
  if (webhookIds.length > 0)
    tasks.push(
      db
        .select({ id: webhookSubscriptions.id, url: webhookSubscriptions.url })
        .from(webhookSubscriptions)
        .where(and(eq(webhookSubscriptions.userId, userId), inArray(webhookSubscriptions.id, webhookIds)))
        .then((rows) =>
          put(
            labels,
            'webhook',
            rows.map((row) => ({ id: row.id, label: hostOf(row.url) })),
          ),
        ),
    );
  await Promise.all(tasks);
  return labels;
}
