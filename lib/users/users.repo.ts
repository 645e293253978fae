import { eq } from 'drizzle-orm';
import type { Executor } from '@/lib/db';
import { users } from '@/lib/db/schema';

export type UserRow = typeof users.$inferSelect;

export async function insertUser(db: Executor, row: typeof users.$inferInsert): Promise<void> {
  await db.insert(users).values(row);
}

export async function findUserById(db: Executor, id: string): Promise<UserRow | null> {
  const [row] = await db.select().from(users).where(eq(users.id, id));
  return row ?? null;
}

export async function findUserByEmail(db: Executor, email: string): Promise<UserRow | null> {
  const [row] = await db.select().from(users).where(eq(users.email, email));
  return row ?? null;
}

export async function updateUserProfile(
  db: Executor,
  id: string,
  changes: Partial<Pick<UserRow, 'displayName' | 'locale' | 'timezone'>>,
  at: Date,
): Promise<UserRow | null> {
  const [row] = await db
    .update(users)
    .set({ ...changes, updatedAt: at })
    .where(eq(users.id, id))
    .returning();
  return row ?? null;
}

/**
 * Locks the user's row until the transaction ends: changes to an account's credentials serialise on
 * it, so a check such as "not the last credential" cannot be raced by a concurrent change.
 */
export async function lockUser(db: Executor, id: string): Promise<boolean> {
  const rows = await db.select({ id: users.id }).from(users).where(eq(users.id, id)).for('update');
  return rows.length === 1;
}
