import { sql } from 'drizzle-orm';
import type { Executor } from '@/lib/db';

/**
 * Serialises one organization's directory writes: uniqueness of userName and of the account a user
 * stands for is decided under it (the partial unique indexes are the last line behind it).
 */
export async function lockDirectory(tx: Executor, organizationId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`scim:${organizationId}`}))`);
}
