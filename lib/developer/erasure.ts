import type { Executor } from '@/lib/db';
import { removePortalClient } from '@/lib/oidc';
import { deleteApiKeysOf, deleteApplicationsOf } from './erasure.repo';

/**
 * The developer context's part of an erasure: the person's API keys, and their applications, whose
 * OAuth clients go from the provider with every grant and token issued to them (as a disable does).
 */
export async function eraseDeveloperDataOf(tx: Executor, userId: string): Promise<void> {
  await deleteApiKeysOf(tx, userId);
  for (const clientId of await deleteApplicationsOf(tx, userId)) await removePortalClient(tx, clientId);
}
