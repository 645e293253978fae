/**
 * SCIM Groups: the organization's groups (the console shows the same ones). A directory creates,
 * renames, reshapes and deletes them; its members are users of the same directory (any other id is
 * 400 invalidValue, so no directory reaches another organization's people), and members an admin
 * added in the console are left alone by a directory's replacement. externalId is fixed once set (400
 * mutability). Every change is recorded and announced as the console's changes are.
 */
import type { Executor } from '@/lib/db';
import { getConfig } from '@/lib/config';
import { getDb, inTransaction } from '@/lib/db';
import {
  addDirectoryGroupMember,
  createDirectoryGroup,
  deleteDirectoryGroup,
  lockDirectoryGroup,
  renameDirectoryGroup,
  setDirectoryGroupMembers,
} from '@/lib/organizations';
import { parseGroup, type GroupAttributes } from '../attributes';
import { readAnswer, windowOf, writeAnswer, type ListQuery, type Preconditions } from '../answers';
import { GROUP_SCHEMA, listResponse } from '../discovery';
import { GROUP_FILTER_ATTRIBUTES } from '../filter';
import { lockDirectory } from '../directory.repo';
import { applyPatch, type ResourceShape } from '../patch';
import { project } from '../projection';
import { noSuchResource, scimInvalid } from '../scim-errors';
import type { DirectoryCall } from '../users/users';
import { findScimUsers } from '../users/users.repo';
import { assertIfMatch, versioned } from '../versions';
import { countScimGroups, directoryMembersOf, findScimGroup, linkScimGroup, listScimGroups, type ScimGroupMember, type ScimGroupRecord } from './groups.repo';

const GROUP_SHAPE: ResourceShape = {
  schema: GROUP_SCHEMA,
  attributes: ['id', 'schemas', 'meta', 'displayName', 'externalId', 'members'],
  multiValued: ['members'],
  readOnly: ['id', 'schemas', 'meta'],
};

const location = (type: 'Users' | 'Groups', id: string) => `${getConfig().baseUrl}/scim/v2/${type}/${id}`;

function attributesOf(group: ScimGroupRecord, members: ScimGroupMember[]): Record<string, unknown> {
  return {
    displayName: group.name,
    ...(group.externalId !== null ? { externalId: group.externalId } : {}),
    members: members.map((m) => ({ value: m.scimUserId, display: m.display, $ref: location('Users', m.scimUserId) })),
  };
}

function groupResource(group: ScimGroupRecord, members: ScimGroupMember[]) {
  return versioned({
    schemas: [GROUP_SCHEMA],
    id: group.id,
    ...attributesOf(group, members),
    meta: {
      resourceType: 'Group',
      created: group.createdAt.toISOString(),
      lastModified: group.updatedAt.toISOString(),
      location: location('Groups', group.id),
    },
  });
}

async function loadGroup(db: Executor, organizationId: string, id: string) {
  const group = await findScimGroup(db, organizationId, id);
  if (!group) throw noSuchResource('Group');
  return { group, members: await directoryMembersOf(db, organizationId, [id]) };
}

/** The memberships behind the member user ids; an id that is not a user of this directory is refused. */
async function membershipsOf(db: Executor, organizationId: string, userIds: readonly string[]): Promise<string[]> {
  const unique = [...new Set(userIds.map((id) => id.toLowerCase()))];
  const found = await findScimUsers(db, organizationId, unique);
  const byId = new Map(found.map((row) => [row.id, row.membershipId]));
  const missing = unique.filter((id) => !byId.has(id));
  if (missing.length > 0) throw scimInvalid('invalidValue', `Members must be users of this directory; not found: ${missing.slice(0, 5).join(', ')}.`);
  return unique.map((id) => byId.get(id)!);
}

const change = (call: DirectoryCall) => ({ organizationId: call.actor.organizationId, actor: call.actor, now: call.now, requestId: call.requestId });

export async function provisionGroup(call: DirectoryCall, body: Record<string, unknown>) {
  const attributes = parseGroup(body);
  const { organizationId } = call.actor;
  const id = await inTransaction(async (tx) => {
    await lockDirectory(tx, organizationId);
    const members = await membershipsOf(tx, organizationId, attributes.members ?? []);
    const group = await createDirectoryGroup(tx, change(call), attributes.displayName);
    await linkScimGroup(tx, { groupId: group.id, organizationId, externalId: attributes.externalId, createdAt: call.now });
    for (const membershipId of members) await addDirectoryGroupMember(tx, change(call), group.id, membershipId);
    return group.id;
  });
  const { group, members } = await loadGroup(await getDb(), organizationId, id);
  return writeAnswer(groupResource(group, members), true);
}

export async function readGroup(call: DirectoryCall, id: string, query: ListQuery, preconditions: Preconditions) {
  const { group, members } = await loadGroup(await getDb(), call.actor.organizationId, id);
  return readAnswer(groupResource(group, members), query, preconditions);
}

export async function listGroups(call: DirectoryCall, query: ListQuery) {
  const window = windowOf(query, GROUP_FILTER_ATTRIBUTES);
  const db = await getDb();
  const { organizationId } = call.actor;
  const [total, rows] = await Promise.all([
    countScimGroups(db, organizationId, window.filter),
    listScimGroups(db, organizationId, window.filter, window.startIndex - 1, window.count),
  ]);
  const members = await directoryMembersOf(
    db,
    organizationId,
    rows.map((row) => row.id),
  );
  const resources = rows.map((row) =>
    project(
      groupResource(
        row,
        members.filter((m) => m.groupId === row.id),
      ).resource,
      query,
    ),
  );
  return listResponse(resources, total, window.startIndex);
}

/** Replaces (PUT) or patches the group; `next` computes the new attributes from the current ones. */
async function changeGroup(call: DirectoryCall, id: string, preconditions: Preconditions, next: (current: Record<string, unknown>) => GroupAttributes) {
  const { organizationId } = call.actor;
  await inTransaction(async (tx) => {
    await lockDirectory(tx, organizationId);
    const locked = await lockDirectoryGroup(tx, organizationId, id);
    const { group, members } = await loadGroup(tx, organizationId, locked.id);
    assertIfMatch(preconditions.ifMatch, groupResource(group, members).etag);
    const attributes = next(attributesOf(group, members));
    if (group.externalId !== null && attributes.externalId !== group.externalId) throw scimInvalid('mutability', 'externalId cannot change once it is set.');
    await renameDirectoryGroup(tx, change(call), locked, attributes.displayName);
    if (attributes.externalId !== group.externalId || !group.managed) {
      await linkScimGroup(tx, { groupId: id, organizationId, externalId: attributes.externalId, createdAt: call.now });
    }
    // Members absent (a PUT without them, a PATCH that removed them): none of the directory's users.
    const target = await membershipsOf(tx, organizationId, attributes.members ?? []);
    const directoryUsers = new Set(members.map((m) => m.membershipId));
    await setDirectoryGroupMembers(tx, change(call), id, target, (membershipId) => directoryUsers.has(membershipId));
  });
  const { group, members } = await loadGroup(await getDb(), organizationId, id);
  return writeAnswer(groupResource(group, members));
}

/** PUT: the group becomes what the body says. */
export function replaceGroup(call: DirectoryCall, id: string, body: Record<string, unknown>, preconditions: Preconditions) {
  return changeGroup(call, id, preconditions, () => parseGroup(body));
}

export function patchGroup(call: DirectoryCall, id: string, body: Record<string, unknown>, preconditions: Preconditions) {
  return changeGroup(call, id, preconditions, (current) => parseGroup(applyPatch(current, body, GROUP_SHAPE)));
}

export async function deprovisionGroup(call: DirectoryCall, id: string, preconditions: Preconditions) {
  const { organizationId } = call.actor;
  await inTransaction(async (tx) => {
    await lockDirectory(tx, organizationId);
    await lockDirectoryGroup(tx, organizationId, id);
    const { group, members } = await loadGroup(tx, organizationId, id);
    assertIfMatch(preconditions.ifMatch, groupResource(group, members).etag);
    await deleteDirectoryGroup(tx, change(call), id);
  });
  return null;
}
