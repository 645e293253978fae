import { z } from 'zod';
import { instantText as instant } from '@/lib/contract/instant';
import { inOrganization, organizationParams, SESSION, TAG } from '../terms';
import { collectionContract } from '@/lib/contract/wire';

const query = z
  .strictObject({
    action: z.string().min(1).max(100).optional(),
    actor_id: z.string().min(1).max(200).optional(),
    /** Inclusive bounds on created_at (ISO 8601 with a zone). */
    from: instant.optional(),
    to: instant.optional(),
  })
  .refine((q) => !q.from || !q.to || Date.parse(q.from) <= Date.parse(q.to), { message: '`from` must not be later than `to`.', path: ['from'] });

/** Names are read when the log is read, inside this organization; null when the party is gone or unnamed. */
const partyName = z
  .string()
  .nullable()
  .optional()
  .describe('What people call it, read now: a person by their address (while they are or were a member), a role, group or application by its name');
const recorded = z.union([z.string(), z.number(), z.boolean(), z.null()]);

const auditEvent = z.object({
  id: z.string(),
  action: z.string(),
  outcome: z.enum(['success', 'failure']),
  actor: z.object({ type: z.string(), id: z.string().nullable(), name: partyName }),
  subject: z.object({ type: z.string(), id: z.string().nullable(), name: partyName }).nullable(),
  request_id: z.string().nullable(),
  data: z.record(z.string(), z.unknown()),
  changes: z
    .array(z.object({ field: z.string(), from: recorded.optional(), to: recorded.optional() }))
    .optional()
    .describe('On updates: each changed field, with its old and new value where the value is not secret and was recorded'),
  created_at: z.string(),
});

export const listOrganizationAuditEvents = collectionContract({
  id: 'listOrganizationAuditEvents',
  method: 'GET',
  path: '/api/organizations/{id}/audit-events',
  tag: TAG,
  summary: "The organization's audit trail, newest first, filtered by action, actor and time (inclusive bounds)",
  auth: SESSION,
  tenant: inOrganization('audit.read'),
  origin: 'if-present',
  idempotency: 'none',
  params: organizationParams,
  query,
  collection: 'audit_events',
  item: auditEvent,
  errorStatuses: [404],
});
