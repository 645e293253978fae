import type { Executor } from '@/lib/db';
import { removeApiResourceServer, removePortalClient } from '@/lib/oidc';
import { tombstoneApiResourcesOf } from './api-resources.repo';
import { deleteApiKeysOf, deleteApplicationsOf } from './erasure.repo';

/**
 * The developer context's part of an erasure: the person's API keys, their API resources (tombstones
 * that keep the identifiers taken), and their applications, whose OAuth clients go from the provider
 * with every grant and token issued to them (as a disable does).
 */
export async function eraseDeveloperDataOf(tx: Executor, userId: string, now: Date): Promise<void> {
  await deleteApiKeysOf(tx, userId);
  for (const identifier of await tombstoneApiResourcesOf(tx, userId, now)) await removeApiResourceServer(tx, identifier);
  for (const clientId of await deleteApplicationsOf(tx, userId)) await removePortalClient(tx, clientId);
}
