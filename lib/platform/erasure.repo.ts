import { eq } from 'drizzle-orm';
import type { Executor } from '@/lib/db';
import { idempotencyRecords } from '@/lib/db/schema';

/** Stored answers of the principal's keyed requests (sealed, but they may hold the person's data). */
export async function deleteIdempotencyRecordsOf(db: Executor, principal: string): Promise<void> {
  await db.delete(idempotencyRecords).where(eq(idempotencyRecords.principal, principal));
}
