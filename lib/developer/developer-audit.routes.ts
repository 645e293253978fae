/**
 * The developer's own activity (API.md): audit rows the caller acted in whose action is a developer
 * action (api_key.*, application.*, webhook.*), newest first, without the audit `data`.
 */
import { DEVELOPER_BEARER, DEVELOPER_BEARER_TAG, DEVELOPER_TAG } from '@/lib/contract/developer-terms';
import { z } from 'zod';
import { developerAuditEvents } from '@/lib/audit';
import { actorOfKind, type Actor } from '@/lib/contract/actor';
import { defineCollection, type AnyOperation, type PageRequest } from '@/lib/contract/operation';
import { bearerEnvelope } from '@/lib/organizations';

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

async function ownActivity(actor: Actor & { userId: string }, page: PageRequest) {
  return { ...(await developerAuditEvents(actor.userId, page)), extra: bearerEnvelope(actor) };
}

export const developerAuditOperations: AnyOperation[] = [
  defineCollection({
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
    handler: ({ actor, page }) => ownActivity(actorOfKind(actor, 'session'), page),
  }),
  defineCollection({
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
    handler: ({ actor, page }) => ownActivity(actorOfKind(actor, 'bearer'), page),
  }),
];
