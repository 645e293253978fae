/**
 * Account deletion requests: the person asks (a recent passkey step-up, the confirmation word, an
 * Idempotency-Key) and may cancel while it is pending; an operator completes it
 * (`npm run privacy:review`), which erases the person in every context (erasure.ts). The moves are
 * DELETION_TRANSITIONS's; each is recorded, announced without personal data, and mailed.
 */
import { randomUUID } from 'node:crypto';
import { recordAudit } from '@/lib/audit';
import { ANONYMOUS, type SessionActor } from '@/lib/contract/actor';
import { serviceError } from '@/lib/contract/errors';
import { getDb, inTransaction, type Executor } from '@/lib/db';
import { emitEvent } from '@/lib/events';
import { decide, erasureBlockers } from '@/lib/organizations';
import { findUserById } from '@/lib/users';
import { erasePerson } from './erasure';
import { findPendingRequest, findRequest, insertDeletionRequest, latestRequest, pendingBefore, updateRequest, type DeletionRequestRow } from './deletion.repo';
import { tellPerson } from './mails';
import { DELETION_TRANSITIONS } from './transitions';

function requestView(row: DeletionRequestRow | null) {
  return row ? { id: row.id, status: row.status, requested_at: row.requestedAt.toISOString(), cancelled_at: row.cancelledAt?.toISOString() ?? null } : null;
}

async function answer(db: Executor, userId: string) {
  return { deletion_request: requestView(await latestRequest(db, userId)), blocked_by: await erasureBlockers(db, userId) };
}

async function addressOf(db: Executor, userId: string): Promise<string> {
  const user = await findUserById(db, userId);
  if (!user) throw serviceError('unauthenticated', 'The account no longer exists.');
  return user.email;
}

export async function readDeletionRequest(actor: SessionActor) {
  return answer(await getDb(), actor.userId);
}

export async function requestDeletion(actor: SessionActor, now: Date, requestId: string) {
  const { result, email } = await inTransaction(async (tx) => {
    const pending = await findPendingRequest(tx, actor.userId);
    const move = await decide(DELETION_TRANSITIONS, pending ? 'pending' : 'none', 'request', {});
    const row: DeletionRequestRow = {
      id: randomUUID(),
      userId: actor.userId,
      status: move.to,
      requestedAt: now,
      cancelledAt: null,
      completedAt: null,
      completedBy: null,
    };
    await insertDeletionRequest(tx, row);
    const subject = { type: 'deletion_request', id: row.id };
    await recordAudit(tx, { action: move.effects.audit, outcome: 'success', actor, subject, requestId, at: now });
    await emitEvent(tx, move.effects.emits, { deletion_request_id: row.id, user_id: actor.userId }, { userId: actor.userId }, now);
    return { result: await answer(tx, actor.userId), email: await addressOf(tx, actor.userId) };
  });
  await tellPerson('requested', email, requestId);
  return result;
}

export async function cancelDeletion(actor: SessionActor, now: Date, requestId: string) {
  const { result, email } = await inTransaction(async (tx) => {
    const pending = await findPendingRequest(tx, actor.userId);
    const move = await decide(DELETION_TRANSITIONS, pending ? 'pending' : 'none', 'cancel', {});
    await updateRequest(tx, pending!.id, { status: move.to, cancelledAt: now });
    const subject = { type: 'deletion_request', id: pending!.id };
    await recordAudit(tx, { action: move.effects.audit, outcome: 'success', actor, subject, requestId, at: now });
    await emitEvent(tx, move.effects.emits, { deletion_request_id: pending!.id, user_id: actor.userId }, { userId: actor.userId }, now);
    return { result: await answer(tx, actor.userId), email: await addressOf(tx, actor.userId) };
  });
  await tellPerson('cancelled', email, requestId);
  return result;
}

/** The operator's review queue: pending requests older than `days`, with what would block each. */
export async function reviewQueue(olderThanDays: number, now: Date) {
  const db = await getDb();
  const rows = await pendingBefore(db, new Date(now.getTime() - olderThanDays * 86_400_000));
  return Promise.all(
    rows.map(async (row) => ({ id: row.id, requested_at: row.requestedAt.toISOString(), blocked_by: row.userId ? await erasureBlockers(db, row.userId) : [] })),
  );
}

/**
 * Completes a pending request, naming the operator: erases the person in every context, keeps the
 * request's own record (its account reference goes with the account), records and announces it with
 * identifiers of the request only, and mails the person one last time. Refused while the person is an
 * organization's only owner (`blocked_by` says which).
 */
export async function completeDeletion(id: string, operator: string, now: Date, requestId: string): Promise<void> {
  if (operator.trim() === '') throw serviceError('invalid_request', 'Name the operator completing the request.');
  const email = await inTransaction(async (tx) => {
    const row = await findRequest(tx, id, true);
    if (!row?.userId) throw serviceError('not_found', 'No such deletion request (or its account is gone).');
    const blockers = await erasureBlockers(tx, row.userId);
    const move = await decide(DELETION_TRANSITIONS, row.status, 'complete', { blockers });
    const address = await addressOf(tx, row.userId);
    await updateRequest(tx, id, { status: move.to, completedAt: now, completedBy: operator.trim() });
    await erasePerson(tx, { userId: row.userId, email: address }, now);
    const subject = { type: 'deletion_request', id };
    await recordAudit(tx, {
      action: move.effects.audit,
      outcome: 'success',
      actor: ANONYMOUS,
      subject,
      requestId,
      data: { operator: operator.trim() },
      at: now,
    });
    await emitEvent(tx, move.effects.emits, { deletion_request_id: id }, {}, now);
    return address;
  });
  await tellPerson('completed', email, requestId);
}
