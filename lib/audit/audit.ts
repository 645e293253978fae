import { randomUUID } from 'node:crypto';
import type { Actor } from '@/lib/contract/actor';
import { getDb, type Executor } from '@/lib/db';
import { listUserActivity } from './activity.repo';
import { insertAuditEvent } from './audit.repo';

/** Keys that must never reach an audit record, whatever a caller passes. */
const FORBIDDEN_KEYS = /password|secret|token|code|hash|cookie|key|ip|user_?agent|otp|assertion|credential/i;

export interface AuditInput {
  action: string;
  outcome: 'success' | 'failure';
  actor: Actor;
  organizationId?: string | null;
  subject?: { type: string; id: string };
  requestId?: string;
  data?: Record<string, string | number | boolean | null>;
  at: Date;
}

function actorRef(actor: Actor): { actorType: string; actorId: string | null } {
  switch (actor.kind) {
    case 'session':
    case 'bearer':
      return { actorType: actor.kind, actorId: actor.userId };
    case 'scim':
      return { actorType: 'scim', actorId: actor.tokenId };
    default:
      return { actorType: actor.kind, actorId: null };
  }
}

/**
 * Records an audit event inside the caller's transaction. Data is privacy-minimised here, once, for
 * every writer: fields whose names suggest secrets or network identity are dropped.
 */
export async function recordAudit(db: Executor, input: AuditInput): Promise<void> {
  const data = Object.fromEntries(Object.entries(input.data ?? {}).filter(([key]) => !FORBIDDEN_KEYS.test(key)));
  await insertAuditEvent(db, {
    id: randomUUID(),
    createdAt: input.at,
    action: input.action,
    outcome: input.outcome,
    ...actorRef(input.actor),
    organizationId: input.organizationId ?? null,
    subjectType: input.subject?.type ?? null,
    subjectId: input.subject?.id ?? null,
    requestId: input.requestId ?? null,
    data,
  });
}

/** A person's own recent activity, privacy-minimised (action, outcome, time), newest first. */
export async function activityOf(userId: string, limit: number) {
  return listUserActivity(await getDb(), userId, limit);
}
