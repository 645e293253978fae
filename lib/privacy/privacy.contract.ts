import { z } from 'zod';
import { resourceContract } from '@/lib/contract/wire';

const TAG = 'Identity profile and privacy';

export const exportPersonalData = resourceContract({
  id: 'exportPersonalData',
  method: 'GET',
  path: '/api/v1/privacy/export',
  tag: TAG,
  summary: 'Export your data: profile, memberships, consents, delegations, sessions, authenticators, activity',
  auth: { kind: 'bearer', accepts: ['oauth'], scopes: ['identity.privacy.export'] },
  origin: 'none',
  idempotency: 'none',
  successStatus: 200,
  errorStatuses: [503],
  response: z.object({
    exported_at: z.string(),
    profile: z.record(z.string(), z.unknown()),
    memberships: z.array(z.record(z.string(), z.unknown())),
    delegations: z.array(z.record(z.string(), z.unknown())),
    consents: z.array(z.record(z.string(), z.unknown())),
    sessions: z.array(z.record(z.string(), z.unknown())),
    authenticators: z.object({
      passkeys: z.array(z.record(z.string(), z.unknown())),
      password: z.object({ set: z.boolean(), updated_at: z.string().nullable() }),
    }),
    activity: z.array(z.object({ action: z.string(), outcome: z.string(), at: z.string() })),
  }),
});
