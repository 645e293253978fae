import { and, eq, ne } from 'drizzle-orm';
import type { Keyset } from '@/lib/contract/operation';
import type { Executor } from '@/lib/db';
import { keysetAfter, keysetOrder } from '@/lib/db/keyset';
import { apiResourceMachineAccess, apiResources } from '@/lib/db/schema';

export type ApiResourceRow = typeof apiResources.$inferSelect;
export type MachineAccessRow = typeof apiResourceMachineAccess.$inferSelect;

/** Inserts the API unless its identifier is taken (by anyone, deleted ones included): false then. */
export async function insertApiResource(db: Executor, row: ApiResourceRow): Promise<boolean> {
  const inserted = await db.insert(apiResources).values(row).onConflictDoNothing({ target: apiResources.identifier }).returning({ id: apiResources.id });
  return inserted.length === 1;
}

/** The owner's live API resources, newest first, keyset-paginated. */
export async function listApiResources(db: Executor, userId: string, after: Keyset | null, limit: number): Promise<ApiResourceRow[]> {
  return db
    .select()
    .from(apiResources)
    .where(and(eq(apiResources.userId, userId), ne(apiResources.status, 'deleted'), keysetAfter(apiResources.createdAt, apiResources.id, after)))
    .orderBy(...keysetOrder(apiResources.createdAt, apiResources.id))
    .limit(limit);
}

/** The owner's live API (locked for a change when asked); another owner's or a deleted one is not found. */
export async function findOwnedApiResource(db: Executor, userId: string, id: string, lock = false): Promise<ApiResourceRow | null> {
  const query = db
    .select()
    .from(apiResources)
    .where(and(eq(apiResources.id, id), eq(apiResources.userId, userId), ne(apiResources.status, 'deleted')));
  const [row] = lock ? await query.for('update') : await query;
  return row ?? null;
}

export async function updateApiResource(
  db: Executor,
  id: string,
  changes: Partial<Omit<ApiResourceRow, 'id' | 'userId' | 'identifier' | 'createdAt'>>,
): Promise<ApiResourceRow> {
  const [row] = await db.update(apiResources).set(changes).where(eq(apiResources.id, id)).returning();
  return row!;
}

/** Every machine grant of the API, newest first, keyset-paginated by (created_at, client_id). */
export async function listMachineAccess(db: Executor, apiResourceId: string, after: Keyset | null, limit: number): Promise<MachineAccessRow[]> {
  return db
    .select()
    .from(apiResourceMachineAccess)
    .where(
      and(eq(apiResourceMachineAccess.apiResourceId, apiResourceId), keysetAfter(apiResourceMachineAccess.createdAt, apiResourceMachineAccess.clientId, after)),
    )
    .orderBy(...keysetOrder(apiResourceMachineAccess.createdAt, apiResourceMachineAccess.clientId))
    .limit(limit);
}

/** Every machine grant of the API (for the provider's record). */
export async function machineAccessOf(db: Executor, apiResourceId: string): Promise<MachineAccessRow[]> {
  return db.select().from(apiResourceMachineAccess).where(eq(apiResourceMachineAccess.apiResourceId, apiResourceId));
}

export async function upsertMachineAccess(db: Executor, row: MachineAccessRow): Promise<void> {
  await db
    .insert(apiResourceMachineAccess)
    .values(row)
    .onConflictDoUpdate({
      target: [apiResourceMachineAccess.apiResourceId, apiResourceMachineAccess.clientId],
      set: { permissions: row.permissions, updatedAt: row.updatedAt },
    });
}

export async function deleteMachineAccess(db: Executor, apiResourceId: string, clientId?: string): Promise<void> {
  await db
    .delete(apiResourceMachineAccess)
    .where(
      and(eq(apiResourceMachineAccess.apiResourceId, apiResourceId), clientId === undefined ? undefined : eq(apiResourceMachineAccess.clientId, clientId)),
    );
}

/** Machine grants keep only permissions the API still has (after its permissions changed); empty ones go. */
export async function narrowMachineAccess(db: Executor, apiResourceId: string, kept: readonly string[], now: Date): Promise<void> {
  const keep = new Set(kept);
  for (const grant of await db.select().from(apiResourceMachineAccess).where(eq(apiResourceMachineAccess.apiResourceId, apiResourceId))) {
    const permissions = grant.permissions.filter((name) => keep.has(name));
    if (permissions.length === grant.permissions.length) continue;
    if (permissions.length === 0) await deleteMachineAccess(db, apiResourceId, grant.clientId);
    else await upsertMachineAccess(db, { ...grant, permissions, updatedAt: now });
  }
}

/**
 * An erased owner's APIs become tombstones: the identifiers stay taken (a token audience never comes
 * to mean another owner's API), nothing else of them is kept. Run before the user row goes; returns
 * the identifiers.
 */
export async function tombstoneApiResourcesOf(db: Executor, userId: string, now: Date): Promise<string[]> {
  const owned = await db.select({ id: apiResources.id, identifier: apiResources.identifier }).from(apiResources).where(eq(apiResources.userId, userId));
  for (const { id } of owned) await deleteMachineAccess(db, id);
  await db
    .update(apiResources)
    .set({ ...tombstone(now), userId: null, name: '' })
    .where(eq(apiResources.userId, userId));
  return owned.map((row) => row.identifier);
}

/** A deleted API: it keeps only its identifier (taken for good), with its machine grants gone. */
export async function tombstoneApiResource(db: Executor, id: string, now: Date): Promise<ApiResourceRow> {
  await deleteMachineAccess(db, id);
  return updateApiResource(db, id, tombstone(now));
}

/** What a tombstone holds besides its identifier: nothing a token or a grant could still use. */
function tombstone(now: Date) {
  return { status: 'deleted' as const, permissions: [], machineClients: false, resourceServerClientId: null, updatedAt: now, deletedAt: now };
}
