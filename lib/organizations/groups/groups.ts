/**
 * Groups of an organization's members: list, create, rename, delete (only when empty) and their
 * members (active members of the same organization). Every read is scoped to the tenant, so another
 * organization's group or membership id is simply not found.
 */
import { randomUUID } from 'node:crypto';
import type { Actor } from '@/lib/contract/actor';
import { serviceError } from '@/lib/contract/errors';
import type { Page, PageRequest } from '@/lib/contract/operation';
import type { TenantActor } from '@/lib/contract/tenant';
import { getDb, inTransaction, type Executor } from '@/lib/db';
import { toPage } from '@/lib/db/keyset';
import { findActiveMember } from '../active-member.repo';
import { recordChange, type OrganizationChange } from '../change-record';
import {
  countGroupMembers,
  deleteGroup,
  deleteGroupMember,
  findGroup,
  groupNameTaken,
  insertGroup,
  insertGroupMember,
  isDirectoryGroup,
  listGroupMembers,
  listGroups,
  renameGroup,
  type GroupMemberRow,
  type GroupRow,
} from './groups.repo';
import { lockOrganization } from '../lifecycle/organizations.repo';

export function groupView(row: GroupRow & { memberCount: number; directoryManaged: boolean }) {
  return {
    id: row.id,
    name: row.name,
    member_count: row.memberCount,
    managed_by_directory: row.directoryManaged,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export function groupMemberView(row: GroupMemberRow) {
  return { id: row.id, user_id: row.userId, email: row.email, display_name: row.displayName, created_at: row.createdAt.toISOString() };
}

const GROUP_EVENTS = {
  'group.created': 'identity.organization.group.created',
  'group.renamed': 'identity.organization.group.updated',
  'group.deleted': 'identity.organization.group.deleted',
  'group.member_added': 'identity.organization.group.member.added',
  'group.member_removed': 'identity.organization.group.member.removed',
} as const;
export type GroupAction = keyof typeof GROUP_EVENTS;

/** The audit and outbox record of a group change (of its membership, when `membershipId` is given). */
export function groupChange(action: GroupAction, groupId: string, membershipId?: string): OrganizationChange<GroupAction> {
  const subject = { type: 'group', id: groupId };
  const type = GROUP_EVENTS[action];
  if (membershipId === undefined) return { action, subject, event: { type, payload: { group_id: groupId } } };
  return { action, subject, data: { membership_id: membershipId }, event: { type, payload: { group_id: groupId, membership_id: membershipId } } };
}

export const noSuchGroup = () => serviceError('not_found', 'No such group in this organization.');
const nameTaken = () =>
  serviceError('conflict', 'A group with this name exists.', { extras: { errors: [{ path: 'name', message: 'A group with this name exists.' }] } });

/** The group, or 404; `lock` as in findGroup. */
async function groupOf(db: Executor, tenant: TenantActor, groupId: string, lock?: 'share' | 'update'): Promise<GroupRow> {
  const group = await findGroup(db, tenant.organizationId, groupId, lock);
  if (!group) throw noSuchGroup();
  return group;
}

/**
 * Name changes serialise on the organization's row lock, so the per-organization (case-insensitive)
 * uniqueness check cannot be raced.
 */
export async function assertNameFree(tx: Executor, tenant: Pick<TenantActor, 'organizationId'>, name: string, exceptId?: string): Promise<void> {
  await lockOrganization(tx, tenant.organizationId);
  if (await groupNameTaken(tx, tenant.organizationId, name, exceptId)) throw nameTaken();
}

export async function listGroupsOf(tenant: TenantActor, page: PageRequest): Promise<Page<ReturnType<typeof groupView>>> {
  const result = toPage(await listGroups(await getDb(), tenant.organizationId, page.after, page.limit + 1), page);
  return { ...result, items: result.items.map(groupView) };
}

export async function createGroup(tenant: TenantActor, actor: Actor, input: { name: string }, now: Date, requestId: string) {
  const row = await inTransaction(async (tx) => {
    await assertNameFree(tx, tenant, input.name);
    const group: GroupRow = { id: randomUUID(), organizationId: tenant.organizationId, name: input.name, createdAt: now, updatedAt: now };
    await insertGroup(tx, group);
    await recordChange(tx, tenant, actor, groupChange('group.created', group.id), now, requestId);
    return group;
  });
  return groupView({ ...row, memberCount: 0, directoryManaged: false });
}

export async function renameGroupOf(tenant: TenantActor, actor: Actor, groupId: string, input: { name: string }, now: Date, requestId: string) {
  const row = await inTransaction(async (tx) => {
    await groupOf(tx, tenant, groupId);
    await assertNameFree(tx, tenant, input.name, groupId);
    const renamed = await renameGroup(tx, tenant.organizationId, groupId, input.name, now);
    if (!renamed) throw noSuchGroup();
    await recordChange(tx, tenant, actor, groupChange('group.renamed', groupId), now, requestId);
    return { ...renamed, memberCount: await countGroupMembers(tx, tenant.organizationId, groupId), directoryManaged: await isDirectoryGroup(tx, groupId) };
  });
  return groupView(row);
}

/** Only an empty group goes (spec, deletion guards); its row lock keeps members from arriving meanwhile. */
export async function deleteGroupOf(tenant: TenantActor, actor: Actor, groupId: string, now: Date, requestId: string) {
  await inTransaction(async (tx) => {
    await groupOf(tx, tenant, groupId, 'update');
    const members = await countGroupMembers(tx, tenant.organizationId, groupId);
    if (members > 0) throw serviceError('conflict', `This group has ${members} member(s); remove them before deleting it.`);
    await deleteGroup(tx, tenant.organizationId, groupId);
    await recordChange(tx, tenant, actor, groupChange('group.deleted', groupId), now, requestId);
  });
  return { deleted: true as const };
}

export async function listGroupMembersOf(tenant: TenantActor, groupId: string, page: PageRequest): Promise<Page<ReturnType<typeof groupMemberView>>> {
  const db = await getDb();
  await groupOf(db, tenant, groupId);
  const result = toPage(await listGroupMembers(db, tenant.organizationId, groupId, page.after, page.limit + 1), page);
  return { ...result, items: result.items.map(groupMemberView) };
}

/** Adds an active member of this organization (another organization's membership id is not found). */
export async function addGroupMember(tenant: TenantActor, actor: Actor, groupId: string, input: { membership_id: string }, now: Date, requestId: string) {
  const member = await inTransaction(async (tx) => {
    await groupOf(tx, tenant, groupId, 'share');
    const found = await findActiveMember(tx, tenant.organizationId, input.membership_id);
    if (!found) throw serviceError('not_found', 'No active member with this membership id in this organization.');
    const added = await insertGroupMember(tx, { groupId, membershipId: found.id, organizationId: tenant.organizationId, createdAt: now });
    if (!added) throw serviceError('conflict', 'This member is already in the group.');
    await recordChange(tx, tenant, actor, groupChange('group.member_added', groupId, found.id), now, requestId);
    return found;
  });
  return groupMemberView({ ...member, createdAt: now });
}

export async function removeGroupMember(tenant: TenantActor, actor: Actor, groupId: string, membershipId: string, now: Date, requestId: string) {
  await inTransaction(async (tx) => {
    await groupOf(tx, tenant, groupId);
    if (!(await deleteGroupMember(tx, tenant.organizationId, groupId, membershipId))) throw serviceError('not_found', 'This member is not in the group.');
    await recordChange(tx, tenant, actor, groupChange('group.member_removed', groupId, membershipId), now, requestId);
  });
  return { removed: true as const };
}
