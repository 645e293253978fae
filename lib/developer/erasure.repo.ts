import { eq } from 'drizzle-orm';
import type { Executor } from '@/lib/db';
import { apiKeys, developerApplications } from '@/lib/db/schema';

export async function deleteApiKeysOf(db: Executor, userId: string): Promise<void> {
  await db.delete(apiKeys).where(eq(apiKeys.userId, userId));
}

/** Deletes the developer's applications (their organization assignments go with them); their client ids. */
export async function deleteApplicationsOf(db: Executor, userId: string): Promise<string[]> {
  const rows = await db.delete(developerApplications).where(eq(developerApplications.userId, userId)).returning({ clientId: developerApplications.clientId });
  return rows.map((row) => row.clientId);
}
