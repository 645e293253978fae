/**
 * Groups as a directory (SCIM) changes them, inside the directory's transaction: the same rows, name
 * rule, audit records and events as the console's changes (groups.ts), without the tenant of a
 * signed-in admin. A directory may delete a group that still has members (the directory is the source
 * of truth for its groups): each member's removal is recorded first, then the deletion.
 */
import { randomUUID } from 'node:crypto';
import type { Actor } from '@/lib/contract/actor';
import { isUuid } from '@/lib/contract/ids';
import type { Executor } from '@/lib/db';
import { recordChange } from '../change-record';
import { assertNameFree, groupChange, noSuchGroup } from './groups';
import { deleteGroup, deleteGroupMember, findGroup, groupMembershipIds, insertGroup, insertGroupMember, renameGroup, type GroupRow } from './groups.repo';

interface DirectoryChange {
  organizationId: string;
  actor: Actor;
  now: Date;
  requestId: string;
}

export async function createDirectoryGroup(tx: Executor, change: DirectoryChange, name: string): Promise<GroupRow> {
  const { organizationId, actor, now, requestId } = change;
  await assertNameFree(tx, { organizationId }, name);
  const group: GroupRow = { id: randomUUID(), organizationId, name, createdAt: now, updatedAt: now };
  await insertGroup(tx, group);
  await recordChange(tx, { organizationId }, actor, groupChange('group.created', group.id), now, requestId);
  return group;
}

/** The group, locked for the change (another organization's group is not found). */
export async function lockDirectoryGroup(tx: Executor, organizationId: string, groupId: string): Promise<GroupRow> {
  const group = isUuid(groupId) ? await findGroup(tx, organizationId, groupId, 'update') : null;
  if (!group) throw noSuchGroup();
  return group;
}

export async function renameDirectoryGroup(tx: Executor, change: DirectoryChange, group: GroupRow, name: string): Promise<void> {
  if (group.name === name) return;
  const { organizationId, actor, now, requestId } = change;
  await assertNameFree(tx, { organizationId }, name, group.id);
  await renameGroup(tx, organizationId, group.id, name, now);
  await recordChange(tx, { organizationId }, actor, groupChange('group.renamed', group.id), now, requestId);
}

/** Makes the group's members among `managed` exactly `wanted` (members outside `managed` are left alone). */
export async function setDirectoryGroupMembers(
  tx: Executor,
  change: DirectoryChange,
  groupId: string,
  wanted: readonly string[],
  managed: (membershipId: string) => boolean,
): Promise<void> {
  const current = new Set((await groupMembershipIds(tx, change.organizationId, groupId)).filter(managed));
  const target = new Set(wanted);
  for (const membershipId of current) if (!target.has(membershipId)) await removeDirectoryGroupMember(tx, change, groupId, membershipId);
  for (const membershipId of target) if (!current.has(membershipId)) await addDirectoryGroupMember(tx, change, groupId, membershipId);
}

export async function addDirectoryGroupMember(tx: Executor, change: DirectoryChange, groupId: string, membershipId: string): Promise<void> {
  const { organizationId, actor, now, requestId } = change;
  if (!(await insertGroupMember(tx, { groupId, membershipId, organizationId, createdAt: now }))) return;
  await recordChange(tx, { organizationId }, actor, groupChange('group.member_added', groupId, membershipId), now, requestId);
}

export async function removeDirectoryGroupMember(tx: Executor, change: DirectoryChange, groupId: string, membershipId: string): Promise<void> {
  const { organizationId, actor, now, requestId } = change;
  if (!(await deleteGroupMember(tx, organizationId, groupId, membershipId))) return;
  await recordChange(tx, { organizationId }, actor, groupChange('group.member_removed', groupId, membershipId), now, requestId);
}

export async function deleteDirectoryGroup(tx: Executor, change: DirectoryChange, groupId: string): Promise<void> {
  for (const membershipId of await groupMembershipIds(tx, change.organizationId, groupId)) await removeDirectoryGroupMember(tx, change, groupId, membershipId);
  await deleteGroup(tx, change.organizationId, groupId);
  await recordChange(tx, { organizationId: change.organizationId }, change.actor, groupChange('group.deleted', groupId), change.now, change.requestId);
}
