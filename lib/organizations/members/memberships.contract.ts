import { z } from 'zod';
import { collectionContract } from '@/lib/contract/wire';

export const listMyMemberships = collectionContract({
  id: 'listMyMemberships',
  method: 'GET',
  path: '/api/v1/me/memberships',
  tag: 'Identity profile and privacy',
  summary: "The credential owner's active memberships (no organization selector: only your own)",
  auth: { kind: 'bearer', accepts: ['oauth'], scopes: ['identity.organization.read'] },
  origin: 'none',
  idempotency: 'none',
  // Strict: an organization selector (or anything else) is refused rather than silently ignored.
  query: z.strictObject({}),
  collection: 'memberships',
  item: z.object({
    id: z.string(),
    organization: z.object({ id: z.string(), name: z.string() }),
    role: z.string(),
    created_at: z.string(),
  }),
  errorStatuses: [503],
});
