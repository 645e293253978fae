/**
 * API resources (issue 23): a developer's own APIs, owner-bound like applications. Each change is
 * one transaction with its audit row and its outbox event (ids only). Another owner's, a deleted or a
 * malformed id is not found, on every route. The identifier is taken for good: a deleted API stays as
 * a tombstone, so a token's audience never comes to mean someone else's API.
 */
import { randomUUID } from 'node:crypto';
import { recordAudit } from '@/lib/audit';
import type { Actor } from '@/lib/contract/actor';
import { invalidField, serviceError } from '@/lib/contract/errors';
import type { EventType } from '@/lib/contract/events';
import { isUuid } from '@/lib/contract/ids';
import type { Page, PageRequest } from '@/lib/contract/operation';
import { getDb, inTransaction, type Executor } from '@/lib/db';
import type { ApiPermission } from '@/lib/db/schema';
import { toPage } from '@/lib/db/keyset';
import { emitEvent } from '@/lib/events';
import { removeApiResourceServer, writeApiResourceServer, writePortalClient } from '@/lib/oidc';
import { API_TOKEN_TTL } from '@/lib/contract/api-resources';
import {
  deleteMachineAccess,
  findOwnedApiResource,
  insertApiResource,
  listApiResources,
  listMachineAccess,
  machineAccessOf,
  narrowMachineAccess,
  tombstoneApiResource,
  updateApiResource,
  upsertMachineAccess,
  type ApiResourceRow,
  type MachineAccessRow,
} from './api-resources.repo';
import { portalClientOf } from './applications';
import { findApplicationByClientId } from './applications.repo';

type Owner = Actor & { userId: string };

export interface NewApiResource {
  identifier: string;
  name: string;
  permissions: ApiPermission[];
  access_token_ttl_seconds?: number;
  machine_clients?: boolean;
}

export interface ApiResourceChanges {
  name?: string;
  permissions?: ApiPermission[];
  access_token_ttl_seconds?: number;
  machine_clients?: boolean;
  resource_server_client_id?: string | null;
  status?: 'enabled' | 'disabled';
}

export function apiResourceView(row: ApiResourceRow) {
  return {
    id: row.id,
    identifier: row.identifier,
    name: row.name,
    permissions: row.permissions,
    access_token_ttl_seconds: row.accessTokenTtlSeconds,
    machine_clients: row.machineClients,
    resource_server_client_id: row.resourceServerClientId,
    // Deleted ones are never read through the owner's routes.
    status: row.status === 'disabled' ? ('disabled' as const) : ('enabled' as const),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
export type ApiResourceView = ReturnType<typeof apiResourceView>;

const machineAccessView = (row: Pick<MachineAccessRow, 'clientId' | 'permissions'>) => ({ client_id: row.clientId, permissions: row.permissions });

const API_RESOURCE_EVENTS = {
  'api_resource.created': 'identity.api_resource.created',
  'api_resource.updated': 'identity.api_resource.updated',
  'api_resource.deleted': 'identity.api_resource.deleted',
  'api_resource.machine_access_set': 'identity.api_resource.machine_access.updated',
} as const satisfies Record<string, EventType>;

/** The audit row and the outbox event of a change (payload: ids only), in the change's transaction. */
async function recordApiResourceChange(
  tx: Executor,
  actor: Owner,
  row: ApiResourceRow,
  action: keyof typeof API_RESOURCE_EVENTS,
  data: Record<string, string | string[]>,
  now: Date,
  requestId: string,
  extraPayload: Record<string, string> = {},
): Promise<void> {
  await recordAudit(tx, { action, outcome: 'success', actor, subject: { type: 'api_resource', id: row.id }, requestId, data: data as never, at: now });
  await emitEvent(tx, API_RESOURCE_EVENTS[action], { api_resource_id: row.id, ...extraPayload }, { userId: actor.userId }, now);
}

/**
 * Rewrites the provider's record of the API (lib/oidc) after a change, in the same transaction: only
 * an enabled API has one, and only an API open to machine clients carries machine grants.
 */
async function syncResourceServer(tx: Executor, api: ApiResourceRow): Promise<void> {
  if (api.status !== 'enabled') return removeApiResourceServer(tx, api.identifier);
  const grants = api.machineClients ? await machineAccessOf(tx, api.id) : [];
  await writeApiResourceServer(tx, {
    identifier: api.identifier,
    name: api.name,
    permissions: api.permissions,
    accessTokenTtlSeconds: api.accessTokenTtlSeconds,
    machineAccess: Object.fromEntries(grants.map((grant) => [grant.clientId, grant.permissions])),
    resourceServerClientId: api.resourceServerClientId,
  });
}

const notFound = () => serviceError('not_found', 'You have no API with this id.');

/** One of the owner's enabled confidential applications (machine clients and resource servers are). */
async function ownConfidentialApplication(tx: Executor, actor: Owner, clientId: string, field: string) {
  const application = await findApplicationByClientId(tx, clientId);
  // Another owner's application is as unknown as a missing one.
  if (!application || application.userId !== actor.userId) throw invalidField(field, 'You have no application with this client id.');
  if (application.clientType !== 'confidential' || application.status !== 'enabled')
    throw invalidField(field, 'Only an enabled confidential application can do this: it authenticates with its secret.');
  return application;
}

async function ownedApiResource(db: Executor, actor: Owner, id: string, lock = false): Promise<ApiResourceRow> {
  if (!isUuid(id)) throw notFound();
  const row = await findOwnedApiResource(db, actor.userId, id, lock);
  if (!row) throw notFound();
  return row;
}

export async function listOwnApiResources(actor: Owner, page: PageRequest): Promise<Page<ApiResourceView>> {
  const result = toPage(await listApiResources(await getDb(), actor.userId, page.after, page.limit + 1), page);
  return { ...result, items: result.items.map(apiResourceView) };
}

export async function getOwnApiResource(actor: Owner, id: string): Promise<ApiResourceView> {
  return apiResourceView(await ownedApiResource(await getDb(), actor, id));
}

export async function createApiResource(actor: Owner, input: NewApiResource, now: Date, requestId: string): Promise<ApiResourceView> {
  const row: ApiResourceRow = {
    id: randomUUID(),
    userId: actor.userId,
    identifier: input.identifier,
    name: input.name,
    permissions: input.permissions,
    accessTokenTtlSeconds: input.access_token_ttl_seconds ?? API_TOKEN_TTL.default,
    machineClients: input.machine_clients ?? false,
    resourceServerClientId: null,
    status: 'enabled',
    createdAt: now,
    updatedAt: now,
    deletedAt: null,
  };
  return inTransaction(async (tx) => {
    // Taken by anyone, now or before: the same answer, which tells no more than the identifier's owner shows publicly.
    if (!(await insertApiResource(tx, row))) throw serviceError('conflict', 'This identifier is taken: an API identifier is never reused.');
    await syncResourceServer(tx, row);
    await recordApiResourceChange(
      tx,
      actor,
      row,
      'api_resource.created',
      { identifier: row.identifier, permissions: row.permissions.map((p) => p.name) },
      now,
      requestId,
    );
    return apiResourceView(row);
  });
}

export async function updateOwnApiResource(actor: Owner, id: string, input: ApiResourceChanges, now: Date, requestId: string): Promise<ApiResourceView> {
  return inTransaction(async (tx) => {
    const current = await ownedApiResource(tx, actor, id, true);
    const changes: Partial<ApiResourceRow> = {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.permissions !== undefined ? { permissions: input.permissions } : {}),
      ...(input.access_token_ttl_seconds !== undefined ? { accessTokenTtlSeconds: input.access_token_ttl_seconds } : {}),
      ...(input.machine_clients !== undefined ? { machineClients: input.machine_clients } : {}),
      ...(input.status !== undefined ? { status: input.status } : {}),
      ...(input.resource_server_client_id !== undefined
        ? {
            resourceServerClientId:
              input.resource_server_client_id &&
              (await ownConfidentialApplication(tx, actor, input.resource_server_client_id, 'body.resource_server_client_id')).clientId,
          }
        : {}),
    };
    const updated = await updateApiResource(tx, current.id, { ...changes, updatedAt: now });
    // A grant never outlives what it names: removed permissions leave every machine grant, and an
    // API closed to machine clients keeps none.
    if (input.machine_clients === false) await deleteMachineAccess(tx, current.id);
    else if (input.permissions)
      await narrowMachineAccess(
        tx,
        current.id,
        input.permissions.map((p) => p.name),
        now,
      );
    await syncResourceServer(tx, updated);
    await recordApiResourceChange(tx, actor, updated, 'api_resource.updated', { fields: Object.keys(input).sort() }, now, requestId);
    return apiResourceView(updated);
  });
}

export async function deleteOwnApiResource(actor: Owner, id: string, now: Date, requestId: string) {
  return inTransaction(async (tx) => {
    const current = await ownedApiResource(tx, actor, id, true);
    // The tombstone keeps the identifier taken; the rest of the API is gone.
    const deleted = await tombstoneApiResource(tx, current.id, now);
    await syncResourceServer(tx, deleted);
    await recordApiResourceChange(tx, actor, deleted, 'api_resource.deleted', {}, now, requestId);
    return { id: current.id, status: 'deleted' as const };
  });
}

export async function listApiMachineAccess(actor: Owner, id: string, page: PageRequest) {
  const db = await getDb();
  const api = await ownedApiResource(db, actor, id);
  const rows = await listMachineAccess(db, api.id, page.after, page.limit + 1);
  const result = toPage(
    rows.map((row) => ({ ...row, id: row.clientId })),
    page,
  );
  return { ...result, items: result.items.map(machineAccessView) };
}

/**
 * Sets which permissions of the API one of the owner's confidential applications gets with client
 * credentials; an empty list removes its access.
 */
export async function setApiMachineAccess(actor: Owner, id: string, input: { client_id: string; permissions: string[] }, now: Date, requestId: string) {
  return inTransaction(async (tx) => {
    const api = await ownedApiResource(tx, actor, id, true);
    if (api.status !== 'enabled') throw serviceError('conflict', 'This API is disabled.');
    if (!api.machineClients) throw serviceError('conflict', 'This API does not take machine clients: allow them first.');
    const application = await ownConfidentialApplication(tx, actor, input.client_id, 'body.client_id');
    const known = new Set(api.permissions.map((p) => p.name));
    const unknown = input.permissions.find((name) => !known.has(name));
    if (unknown !== undefined) throw invalidField('body.permissions', `This API has no permission named ${JSON.stringify(unknown)}.`);
    const permissions = [...new Set(input.permissions)];
    if (permissions.length === 0) await deleteMachineAccess(tx, api.id, application.clientId);
    else await upsertMachineAccess(tx, { apiResourceId: api.id, clientId: application.clientId, permissions, createdAt: now, updatedAt: now });
    await syncResourceServer(tx, api);
    // Rewritten so that a record from before machine access gains the client credentials grant type.
    await writePortalClient(tx, portalClientOf(application));
    await recordApiResourceChange(tx, actor, api, 'api_resource.machine_access_set', { client_id: application.clientId, permissions }, now, requestId, {
      client_id: application.clientId,
    });
    return machineAccessView({ clientId: application.clientId, permissions });
  });
}
