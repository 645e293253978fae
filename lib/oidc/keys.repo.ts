import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Executor, Tx } from '@/lib/db';
import { oidcKeys } from '@/lib/db/schema';

export type OidcKeyRow = typeof oidcKeys.$inferSelect;
const KEY_LOCK = 472_018_338;

/** Serialises key generation across instances (first boot, rotation). */
export async function lockKeys(tx: Tx): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${KEY_LOCK})`);
}

export async function listKeys(db: Executor, use: OidcKeyRow['use'], statuses: OidcKeyRow['status'][]): Promise<OidcKeyRow[]> {
  return db
    .select()
    .from(oidcKeys)
    .where(and(eq(oidcKeys.use, use), inArray(oidcKeys.status, statuses)))
    .orderBy(sql`case ${oidcKeys.status} when 'active' then 0 else 1 end`, asc(oidcKeys.createdAt));
}

export async function insertKey(db: Executor, row: typeof oidcKeys.$inferInsert): Promise<void> {
  await db.insert(oidcKeys).values(row);
}

export async function setKeyStatus(db: Executor, kids: string[], status: OidcKeyRow['status'], at: Date): Promise<void> {
  if (kids.length === 0) return;
  await db
    .update(oidcKeys)
    .set({ status, ...(status === 'retired' ? { retiredAt: at } : {}) })
    .where(inArray(oidcKeys.kid, kids));
}
