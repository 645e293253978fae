import { and, eq } from 'drizzle-orm';
import type { Keyset } from '@/lib/contract/operation';
import type { Executor } from '@/lib/db';
import { keysetAfter, keysetOrder } from '@/lib/db/keyset';
import { developerApplications } from '@/lib/db/schema';

export type ApplicationRow = typeof developerApplications.$inferSelect;

export async function insertApplication(db: Executor, row: ApplicationRow): Promise<void> {
  await db.insert(developerApplications).values(row);
}

/** The owner's applications, newest first, keyset-paginated. */
export async function listApplications(db: Executor, userId: string, after: Keyset | null, limit: number): Promise<ApplicationRow[]> {
  return db
    .select()
    .from(developerApplications)
    .where(and(eq(developerApplications.userId, userId), keysetAfter(developerApplications.createdAt, developerApplications.id, after)))
    .orderBy(...keysetOrder(developerApplications.createdAt, developerApplications.id))
    .limit(limit);
}

/** The owner's application (locked for a change when asked); another owner's is simply not found. */
export async function findOwnedApplication(db: Executor, userId: string, id: string, lock = false): Promise<ApplicationRow | null> {
  const query = db
    .select()
    .from(developerApplications)
    .where(and(eq(developerApplications.id, id), eq(developerApplications.userId, userId)));
  const [row] = lock ? await query.for('update') : await query;
  return row ?? null;
}

export async function findApplicationByClientId(db: Executor, clientId: string): Promise<ApplicationRow | null> {
  const [row] = await db.select().from(developerApplications).where(eq(developerApplications.clientId, clientId)).for('update');
  return row ?? null;
}

export async function updateApplication(
  db: Executor,
  id: string,
  changes: Partial<Omit<ApplicationRow, 'id' | 'userId' | 'clientId' | 'createdAt'>>,
): Promise<ApplicationRow> {
  const [row] = await db.update(developerApplications).set(changes).where(eq(developerApplications.id, id)).returning();
  return row!;
}
