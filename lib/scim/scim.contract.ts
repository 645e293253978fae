/**
 * The SCIM 2.0 surface (spec, SCIM 2.0; RFC 7643/7644): organization-scoped Users and Groups and the
 * discovery documents, all behind the organization's SCIM token (its only authorization context). The
 * edge answers in application/scim+json and the SCIM error schema (lib/http/surfaces.ts). Bodies are
 * declared as objects and read by the SCIM rules (lib/scim/attributes.ts), because SCIM attribute
 * names are case-insensitive and clients send attributes this service does not keep.
 */
import { z } from 'zod';
import type { EventType } from '@/lib/contract/events';
import { resourceContract } from '@/lib/contract/wire';
import { listAnswer, listQuery, resourceQuery, SCIM, scimBody, scimResource } from './scim-terms.contract';

const idParams = z.object({ id: z.string().min(1).max(100) });

/** The events each write may emit (the membership's and the group's own, as the console's changes emit them). */
interface WriteEvents {
  create: readonly EventType[];
  change: readonly EventType[];
  remove: readonly EventType[];
}

function resourceOperations<N extends 'Users' | 'Groups'>(name: N, singular: 'User' | 'Group', emits: WriteEvents) {
  const path = `/scim/v2/${name}`;
  const item = `${path}/{id}`;
  return {
    list: resourceContract({
      ...SCIM,
      id: `listScim${name}`,
      method: 'GET',
      path,
      summary: `${name} of the token's organization (startIndex one-based, count bounded, filter: see ServiceProviderConfig)`,
      query: listQuery,
      successStatus: 200,
      errorStatuses: [400],
      response: listAnswer,
    }),
    create: resourceContract({
      ...SCIM,
      id: `provisionScim${singular}`,
      method: 'POST',
      path,
      summary: `Provision a ${singular} (201 with Location and ETag; 409 uniqueness)`,
      body: scimBody,
      emits: emits.create,
      successStatus: 201,
      errorStatuses: [400, 409],
      response: scimResource,
    }),
    read: resourceContract({
      ...SCIM,
      id: `readScim${singular}`,
      method: 'GET',
      path: item,
      summary: `Read a ${singular} (ETag; If-None-Match answers 304 when unchanged)`,
      params: idParams,
      query: resourceQuery,
      successStatus: 200,
      errorStatuses: [304, 404],
      response: scimResource,
    }),
    replace: resourceContract({
      ...SCIM,
      id: `replaceScim${singular}`,
      method: 'PUT',
      path: item,
      summary: `Replace a ${singular} (If-Match: 412 when the version changed; * for any)`,
      params: idParams,
      body: scimBody,
      emits: emits.change,
      successStatus: 200,
      errorStatuses: [400, 404, 409, 412],
      response: scimResource,
    }),
    patch: resourceContract({
      ...SCIM,
      id: `patchScim${singular}`,
      method: 'PATCH',
      path: item,
      summary: `Patch a ${singular} with a PatchOp (add, replace, remove; If-Match as for PUT)`,
      params: idParams,
      body: scimBody,
      emits: emits.change,
      successStatus: 200,
      errorStatuses: [400, 404, 409, 412],
      response: scimResource,
    }),
    remove: resourceContract({
      ...SCIM,
      id: `deprovisionScim${singular}`,
      method: 'DELETE',
      path: item,
      summary:
        singular === 'User'
          ? 'Deprovision a User: its membership is revoked, with the access it gave; the account stays'
          : 'Deprovision a Group: its members are removed, then the group',
      params: idParams,
      emits: emits.remove,
      successStatus: 204,
      errorStatuses: [404, 412],
      response: z.null(),
    }),
  };
}

const users = resourceOperations('Users', 'User', {
  create: [
    'identity.user.created',
    'identity.organization.member.added',
    'identity.organization.member.updated',
    'identity.organization.directory.user.provisioned',
  ],
  change: [
    'identity.organization.member.added',
    'identity.organization.member.updated',
    'identity.organization.directory.user.updated',
    'identity.organization.directory.user.deactivated',
    'identity.organization.directory.user.reactivated',
  ],
  remove: ['identity.organization.member.removed', 'identity.organization.directory.user.deprovisioned'],
});
const groups = resourceOperations('Groups', 'Group', {
  create: ['identity.organization.group.created', 'identity.organization.group.member.added'],
  change: ['identity.organization.group.updated', 'identity.organization.group.member.added', 'identity.organization.group.member.removed'],
  remove: ['identity.organization.group.member.removed', 'identity.organization.group.deleted'],
});

export const listScimUsers = users.list;
export const provisionScimUser = users.create;
export const readScimUser = users.read;
export const replaceScimUser = users.replace;
export const patchScimUser = users.patch;
export const deprovisionScimUser = users.remove;
export const listScimGroups = groups.list;
export const provisionScimGroup = groups.create;
export const readScimGroup = groups.read;
export const replaceScimGroup = groups.replace;
export const patchScimGroup = groups.patch;
export const deprovisionScimGroup = groups.remove;

export const getScimServiceProviderConfig = resourceContract({
  ...SCIM,
  id: 'getScimServiceProviderConfig',
  method: 'GET',
  path: '/scim/v2/ServiceProviderConfig',
  summary: 'What this SCIM service supports (patch, filter with maxResults, etag; no bulk, sort or password change)',
  successStatus: 200,
  response: scimResource,
});

export const listScimResourceTypes = resourceContract({
  ...SCIM,
  id: 'listScimResourceTypes',
  method: 'GET',
  path: '/scim/v2/ResourceTypes',
  summary: 'The resource types: User and Group',
  successStatus: 200,
  response: listAnswer,
});

export const listScimSchemas = resourceContract({
  ...SCIM,
  id: 'listScimSchemas',
  method: 'GET',
  path: '/scim/v2/Schemas',
  summary: 'The User and Group schemas',
  extension: true,
  successStatus: 200,
  response: listAnswer,
});

export const getScimSchema = resourceContract({
  ...SCIM,
  id: 'getScimSchema',
  method: 'GET',
  path: '/scim/v2/Schemas/{id}',
  summary: 'One schema, by its URN',
  params: z.object({ id: z.string().min(1).max(200) }),
  successStatus: 200,
  errorStatuses: [404],
  response: scimResource,
});
