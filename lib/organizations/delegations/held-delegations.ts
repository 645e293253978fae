import { getDb } from '@/lib/db';
import { grantsHeldBy } from './delegations.repo';

/** A person's delegated-admin grants, for their privacy export: what, where, until when; never who granted it. */
export async function delegationsHeldBy(userId: string, now: Date) {
  return (await grantsHeldBy(await getDb(), userId)).map((grant) => ({
    id: grant.id,
    organization_id: grant.organizationId,
    permissions: grant.permissions,
    created_at: grant.createdAt.toISOString(),
    expires_at: grant.expiresAt?.toISOString() ?? null,
    status: grant.revokedAt ? 'revoked' : grant.expiresAt && grant.expiresAt <= now ? 'expired' : 'active',
  }));
}
