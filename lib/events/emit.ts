import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { EventType } from '@/lib/contract/events';
import type { Executor } from '@/lib/db';
import { insertOutboxEvent } from './outbox.repo';

export type { EventType };

/**
 * The events the running operation declares (`emits`), set by the edge around each handler. Writing
 * another one is a programming error: the declaration feeds the API document and webhook consumers
 * rely on it, so it must not drift from what the code does.
 */
const declaredEvents = new AsyncLocalStorage<{ operationId: string; emits: readonly EventType[] }>();

export function withDeclaredEvents<T>(operationId: string, emits: readonly EventType[], work: () => Promise<T>): Promise<T> {
  return declaredEvents.run({ operationId, emits }, work);
}

function assertDeclared(type: EventType): void {
  const running = declaredEvents.getStore();
  if (running && !running.emits.includes(type)) {
    throw new Error(`Operation ${running.operationId} emitted ${type} without declaring it in its emits list`);
  }
}

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
  assertDeclared(type);
  await insertOutboxEvent(db, {
    id: randomUUID(),
    createdAt: at,
    type,
    userId: audience.userId ?? null,
    organizationId: audience.organizationId ?? null,
    payload,
  });
}
