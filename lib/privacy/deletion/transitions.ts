/**
 * A deletion request's life in one table (the form of lib/organizations/transitions). `none`: the
 * account has no pending request (it may have older, closed ones).
 *
 * | from    | event    | guards                                   | to        | effects                          |
 * |---------|----------|------------------------------------------|-----------|----------------------------------|
 * | none    | request  | -                                        | pending   | audit, event, mail               |
 * | pending | cancel   | -                                        | cancelled | audit, event, mail               |
 * | pending | complete | the person is no organization's only owner | completed | erasure in every context, audit, |
 * |         |          |                                          |           | event (no personal data), mail   |
 *
 * Any other move is 409 (a second request while one is pending) or 404 (nothing pending to cancel or
 * complete). Nothing is deleted by `request` or `cancel`.
 */
import type { AuditAction } from '@/lib/audit';
import { serviceError } from '@/lib/contract/errors';
import type { EventType } from '@/lib/contract/events';
import type { Guard, TransitionTable } from '@/lib/organizations';

export type DeletionState = 'none' | 'pending' | 'cancelled' | 'completed';
export type StoredDeletionState = Exclude<DeletionState, 'none'>;

export interface Blocker {
  organization_id: string;
  organization_name: string;
  reason: 'sole_owner';
}

export interface DeletionFacts {
  request: Record<string, never>;
  cancel: Record<string, never>;
  complete: { blockers: Blocker[] };
}

export interface DeletionEffects {
  audit: Extract<AuditAction, `privacy.${string}`>;
  emits: EventType;
  mail: 'requested' | 'cancelled' | 'completed';
}

const noSoleOwnership: Guard<DeletionFacts['complete']> = {
  says: 'the person is no organization’s only owner',
  holds: (facts) => facts.blockers.length === 0,
  refusal: ({ blockers }) =>
    serviceError(
      'conflict',
      `The person is the only owner of ${blockers.map((b) => `“${b.organization_name}”`).join(', ')}: another owner must be named, or the organization deleted, first.`,
      { extras: { blocked_by: blockers } },
    ),
};

export const DELETION_TRANSITIONS: TransitionTable<DeletionState, StoredDeletionState, DeletionFacts, DeletionEffects> = {
  states: ['none', 'pending', 'cancelled', 'completed'],
  events: ['request', 'cancel', 'complete'],
  rows: [
    {
      from: ['none'],
      event: 'request',
      guards: [],
      to: 'pending',
      effects: { audit: 'privacy.deletion_requested', emits: 'identity.privacy.deletion.requested', mail: 'requested' },
    },
    {
      from: ['pending'],
      event: 'cancel',
      guards: [],
      to: 'cancelled',
      effects: { audit: 'privacy.deletion_cancelled', emits: 'identity.privacy.deletion.cancelled', mail: 'cancelled' },
    },
    {
      from: ['pending'],
      event: 'complete',
      guards: [noSoleOwnership],
      to: 'completed',
      effects: { audit: 'privacy.deletion_completed', emits: 'identity.privacy.deletion.completed', mail: 'completed' },
    },
  ],
  // A new request is decided from `none` (no request pending); a closed request is never moved again.
  unlisted: (state, event) => {
    if (event === 'request' && state === 'pending')
      return serviceError('conflict', 'A deletion request is already pending: cancel it, or wait for it to be completed.');
    if (state === 'none') return serviceError('not_found', 'No deletion request is pending.');
    return serviceError(event === 'request' ? 'conflict' : 'not_found', `This deletion request is ${state}.`);
  },
};
