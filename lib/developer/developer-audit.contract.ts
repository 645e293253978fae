/** The developer's own activity (developer-audit.ts): the session read and the bearer read. */
import { z } from 'zod';
import { DEVELOPER_BEARER, DEVELOPER_BEARER_TAG, DEVELOPER_TAG } from '@/lib/contract/developer-terms';
import { collectionContract } from '@/lib/contract/wire';

const auditEvent = z.object({
  id: z.string(),
  action: z.string(),
  outcome: z.enum(['success', 'failure']),
  subject_type: z.string().nullable(),
  subject_id: z.string().nullable(),
  subject_name: z
    .string()
    .nullable()
    .optional()
    .describe("The subject's name, read now: your API key's or application's name, your webhook's host; null once it is gone"),
  created_at: z.string(),
  request_id: z.string().nullable(),
});

export const listDeveloperAuditEvents = collectionContract({
  id: 'listDeveloperAuditEvents',
  method: 'GET',
  path: '/api/developer/audit-events',
  tag: DEVELOPER_TAG,
  summary: 'Your own developer activity (API keys, applications, webhooks), newest first; audit data is left out',
  auth: { kind: 'session' },
  origin: 'if-present',
  idempotency: 'none',
  collection: 'audit_events',
  item: auditEvent,
});

export const listBearerDeveloperAuditEvents = collectionContract({
  id: 'listBearerDeveloperAuditEvents',
  method: 'GET',
  path: '/api/v1/developer/audit-events',
  tag: DEVELOPER_BEARER_TAG,
  summary: "The credential owner's developer activity, newest first; audit data is left out",
  auth: DEVELOPER_BEARER('identity.developer.read'),
  origin: 'none',
  idempotency: 'none',
  collection: 'audit_events',
  item: auditEvent,
});
