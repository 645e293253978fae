import { bindResource, type AnyOperation, type HandlerContext } from '@/lib/contract/operation';
import type { ScimActor } from '@/lib/contract/actor';
import { serviceError } from '@/lib/contract/errors';
import { getConfig } from '@/lib/config';
import { listResponse, resourceTypes, schemas, serviceProviderConfig } from './discovery';
import { deprovisionGroup, listGroups, patchGroup, provisionGroup, readGroup, replaceGroup } from './groups/groups';
import * as contract from './scim.contract';
import { deprovisionUser, listUsers, patchUser, provisionUser, readUser, replaceUser, type DirectoryCall } from './users/users';

/** Who calls, and when: the token's organization is the only context a SCIM operation has. */
const call = ({ actor, now, requestId }: Pick<HandlerContext<unknown, unknown, unknown>, 'now' | 'requestId'> & { actor: ScimActor }): DirectoryCall => ({
  actor,
  now,
  requestId,
});

export const scimOperations: AnyOperation[] = [
  bindResource(contract.listScimUsers, (ctx) => listUsers(call(ctx), ctx.query)),
  bindResource(contract.provisionScimUser, (ctx) => provisionUser(call(ctx), ctx.body)),
  bindResource(contract.readScimUser, (ctx) => readUser(call(ctx), ctx.params.id, ctx.query, ctx.preconditions)),
  bindResource(contract.replaceScimUser, (ctx) => replaceUser(call(ctx), ctx.params.id, ctx.body, ctx.preconditions)),
  bindResource(contract.patchScimUser, (ctx) => patchUser(call(ctx), ctx.params.id, ctx.body, ctx.preconditions)),
  bindResource(contract.deprovisionScimUser, (ctx) => deprovisionUser(call(ctx), ctx.params.id, ctx.preconditions)),
  bindResource(contract.listScimGroups, (ctx) => listGroups(call(ctx), ctx.query)),
  bindResource(contract.provisionScimGroup, (ctx) => provisionGroup(call(ctx), ctx.body)),
  bindResource(contract.readScimGroup, (ctx) => readGroup(call(ctx), ctx.params.id, ctx.query, ctx.preconditions)),
  bindResource(contract.replaceScimGroup, (ctx) => replaceGroup(call(ctx), ctx.params.id, ctx.body, ctx.preconditions)),
  bindResource(contract.patchScimGroup, (ctx) => patchGroup(call(ctx), ctx.params.id, ctx.body, ctx.preconditions)),
  bindResource(contract.deprovisionScimGroup, (ctx) => deprovisionGroup(call(ctx), ctx.params.id, ctx.preconditions)),
  bindResource(contract.getScimServiceProviderConfig, async () => serviceProviderConfig(getConfig().baseUrl)),
  bindResource(contract.listScimResourceTypes, async () => {
    const types = resourceTypes(getConfig().baseUrl);
    return listResponse(types, types.length, 1);
  }),
  bindResource(contract.listScimSchemas, async () => {
    const all = schemas(getConfig().baseUrl);
    return listResponse(all, all.length, 1);
  }),
  bindResource(contract.getScimSchema, async ({ params }) => {
    const found = schemas(getConfig().baseUrl).find((schema) => schema.id === params.id);
    if (!found) throw serviceError('not_found', 'No schema with this id: see /scim/v2/Schemas.');
    return found;
  }),
];
