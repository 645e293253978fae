import { randomUUID } from 'node:crypto';
import type { Executor } from '@/lib/db';
import { insertOutboxEvent } from './outbox.repo';

/** The event catalogue (docs/decisions.md lists each payload). */
export type EventType = 'identity.session.revoked' | 'identity.user.updated' | 'identity.user.created' | 'identity.password.changed' | 'identity.passkey.added' | 'identity.passkey.removed';

/**
 * Writes an event into the outbox inside the caller's transaction, so it exists exactly when the
 * change that caused it does. Payloads are privacy-minimised by each emitter.
 */
export async function emitEvent(
  db: Executor,
  type: EventType,
  payload: Record<string, string | number | boolean | null>,
  audience: { userId?: string; organizationId?: string },
  at: Date,
): Promise<void> {
  await insertOutboxEvent(db, {
    id: randomUUID(),
    createdAt: at,
    type,
    userId: audience.userId ?? null,
    organizationId: audience.organizationId ?? null,
    payload,
  });
}
