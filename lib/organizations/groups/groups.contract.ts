import { z } from 'zod';
import { BEARER_TAG, displayName, inOrganization, nestedParams, ORGANIZATION_BEARER, ORGANIZATION_STEP_UP, organizationParams, SESSION, TAG } from '../terms';
import { collectionContract, resourceContract } from '@/lib/contract/wire';

const group = z.object({
  id: z.string(),
  name: z.string(),
  member_count: z.number().int(),
  /** A directory (SCIM) created or adopted the group and keeps its members in step. */
  managed_by_directory: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
const groupMember = z.object({ id: z.string(), user_id: z.string(), email: z.string(), display_name: z.string().nullable(), created_at: z.string() });
const groupParams = nestedParams('group_id');
const groupMemberParams = groupParams.extend({ membership_id: z.uuid() });

/** The same lists serve the browser and the bearer reads (envelope plus `authentication`, `scopes`). */
const groupLists = (surface: 'browser' | 'bearer') => {
  const bearer = surface === 'bearer';
  const prefix = bearer ? '/api/v1/organizations/{id}' : '/api/organizations/{id}';
  const common = { tag: bearer ? BEARER_TAG : TAG, tenant: inOrganization('read'), origin: bearer ? 'none' : 'if-present', idempotency: 'none' } as const;
  return {
    groups: collectionContract({
      ...common,
      id: bearer ? 'listBearerOrganizationGroups' : 'listOrganizationGroups',
      method: 'GET',
      path: `${prefix}/groups`,
      summary: bearer ? "The bound organization's groups" : "The organization's groups, with their member counts",
      auth: bearer ? ORGANIZATION_BEARER('identity.organization.read') : SESSION,
      params: organizationParams,
      collection: 'groups',
      item: group,
      errorStatuses: [404],
    }),
    members: collectionContract({
      ...common,
      id: bearer ? 'listBearerOrganizationGroupMembers' : 'listOrganizationGroupMembers',
      method: 'GET',
      path: `${prefix}/groups/{group_id}/members`,
      summary: bearer ? "A group's members in the bound organization" : "A group's members (newest addition first)",
      auth: bearer ? ORGANIZATION_BEARER('identity.organization.members.read') : SESSION,
      params: groupParams,
      collection: 'members',
      item: groupMember,
      errorStatuses: [404],
    }),
  };
};

const browserLists = groupLists('browser');
const bearerLists = groupLists('bearer');
export const listOrganizationGroups = browserLists.groups;
export const listOrganizationGroupMembers = browserLists.members;
export const listBearerOrganizationGroups = bearerLists.groups;
export const listBearerOrganizationGroupMembers = bearerLists.members;

const mutation = { tag: TAG, auth: ORGANIZATION_STEP_UP, tenant: inOrganization('groups.manage'), origin: 'required', idempotency: 'optional' } as const;

export const createOrganizationGroup = resourceContract({
  ...mutation,
  id: 'createOrganizationGroup',
  method: 'POST',
  path: '/api/organizations/{id}/groups',
  summary: 'Create a group (names are unique in the organization)',
  params: organizationParams,
  body: z.strictObject({ name: displayName }),
  successStatus: 201,
  errorStatuses: [404, 409],
  emits: ['identity.organization.group.created'],
  response: group,
});

export const renameOrganizationGroup = resourceContract({
  ...mutation,
  id: 'renameOrganizationGroup',
  method: 'PATCH',
  path: '/api/organizations/{id}/groups/{group_id}',
  summary: 'Rename a group',
  params: groupParams,
  body: z.strictObject({ name: displayName }),
  successStatus: 200,
  errorStatuses: [404, 409],
  emits: ['identity.organization.group.updated'],
  response: group,
});

export const deleteOrganizationGroup = resourceContract({
  ...mutation,
  id: 'deleteOrganizationGroup',
  method: 'DELETE',
  path: '/api/organizations/{id}/groups/{group_id}',
  summary: 'Delete an empty group (409 while it has members)',
  params: groupParams,
  successStatus: 200,
  errorStatuses: [404, 409],
  emits: ['identity.organization.group.deleted'],
  response: z.object({ deleted: z.literal(true) }),
});

export const addOrganizationGroupMember = resourceContract({
  ...mutation,
  id: 'addOrganizationGroupMember',
  method: 'POST',
  path: '/api/organizations/{id}/groups/{group_id}/members',
  summary: 'Add an active member of the organization to a group',
  params: groupParams,
  body: z.strictObject({ membership_id: z.uuid() }),
  successStatus: 201,
  errorStatuses: [404, 409],
  emits: ['identity.organization.group.member.added'],
  response: groupMember,
});

export const removeOrganizationGroupMember = resourceContract({
  ...mutation,
  id: 'removeOrganizationGroupMember',
  method: 'DELETE',
  path: '/api/organizations/{id}/groups/{group_id}/members/{membership_id}',
  summary: 'Remove a member from a group',
  params: groupMemberParams,
  successStatus: 200,
  errorStatuses: [404],
  emits: ['identity.organization.group.member.removed'],
  response: z.object({ removed: z.literal(true) }),
});
