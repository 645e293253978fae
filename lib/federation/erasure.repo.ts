import { eq } from 'drizzle-orm';
import type { Executor } from '@/lib/db';
import { federatedIdentities } from '@/lib/db/schema';

export async function deleteFederatedIdentitiesOf(db: Executor, userId: string): Promise<void> {
  await db.delete(federatedIdentities).where(eq(federatedIdentities.userId, userId));
}
