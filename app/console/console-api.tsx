'use client';

import Link from 'next/link';
import { useCallback, useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { callApi, type ApiResult, type Problem } from '../_components/auth/api';
import { idempotencyKey, leftForSignIn } from '../_components/auth/signed-in-api';
import { usePagedCollection, withQuery } from '../_components/collection-state';
import { useApiAction } from '../_components/auth/use-api-action';
import { isPermission } from '@/lib/contract/permissions';
import { useAccount } from '@/app/_components/account-context';
import { useStepUp } from '@/app/_components/step-up';
import { useConsole } from './console-context';
import { describeChange } from './gated-changes';
import { consoleHref } from './sections';
import type { Approval } from './types';

export { withQuery };

/** The organization API's problem extras the console acts on. */
export interface ConsoleProblem extends Problem {
  permission?: string;
  approval?: { action: string; target: string };
  reauthentication?: { reason: string };
}

export interface SendOptions {
  /** POST unless said otherwise. */
  method?: 'POST' | 'PATCH' | 'DELETE';
  body?: unknown;
  /** The operation requires an Idempotency-Key; one key covers the action and its retry after a step-up. */
  idempotent?: boolean;
  /**
   * A change the organization may put behind an approval: where an approved request's id travels
   * (`?approval_id=` or the body's `approval_id`) when the first answer is approval_required.
   */
  approval?: 'query' | 'body';
  /** An approved request to use (the approvals inbox applying it), instead of looking one up after a refusal. */
  approvalId?: string;
}

export type Send = <T>(path: string, options?: SendOptions) => Promise<ApiResult<T> | null>;

/** Problems reworded for people where the API's own words are for programs. */
function explained<T>(result: ApiResult<T>): ApiResult<T> {
  if (result.ok) return result;
  const problem = result.body as ConsoleProblem;
  // Only a missing catalogue permission is reworded; other refusals (owner-only acts, separation of
  // duties) keep the API's own reason, which says what to do.
  if (problem.code === 'forbidden' && (isPermission(problem.permission ?? '') || !problem.detail)) {
    const detail = problem.permission
      ? `Your role in this organization does not allow this (it needs the “${problem.permission}” permission).`
      : 'Your role in this organization does not allow this.';
    return { ...result, body: { ...problem, detail } };
  }
  if (problem.code === 'approval_required') {
    return { ...result, body: { ...problem, detail: 'This organization requires an approved request from another administrator before this change.' } };
  }
  return result;
}

export const organizationPath = (organizationId: string, path = '') => `/api/organizations/${encodeURIComponent(organizationId)}${path}`;

/** A GET from the browser, with the console's handling of ended sessions and refusals. */
export async function readApi<T>(path: string): Promise<ApiResult<T>> {
  const result = await callApi<T>(path);
  leftForSignIn(result);
  return explained(result);
}

function isApprovalRequired(result: ApiResult): result is { ok: false; status: number; body: ConsoleProblem } {
  return !result.ok && result.body.code === 'approval_required' && Boolean((result.body as ConsoleProblem).approval);
}

/** An approved, unused, unexpired request for exactly this change, if the caller may list approvals. */
async function approvedRequest(organizationId: string, wanted: { action: string; target: string }): Promise<Approval | null> {
  const result = await callApi<{ approvals: Approval[] }>(withQuery(organizationPath(organizationId, '/approvals'), { status: 'approved' }));
  if (!result.ok) return null;
  const now = Date.now();
  return (
    result.body.approvals.find(
      (approval) =>
        approval.action === wanted.action && approval.target === wanted.target && approval.consumed_at === null && Date.parse(approval.expires_at) > now,
    ) ?? null
  );
}

type RequestApproval = (reason: string) => Promise<ApiResult<Approval> | null>;

/**
 * How to request the approval an approval_required answer names (POST .../approvals with its action
 * and target), through the `send` that got the answer, so a step-up shows in that section's panel.
 * Kept beside the problem (keyed by its body) rather than in it: a problem stays plain data.
 */
const approvalRequests = new WeakMap<object, RequestApproval>();

/**
 * The one way a section changes something in the selected organization. `send(path, options)`:
 * - adds the CSRF token, and an Idempotency-Key where the operation needs one;
 * - step_up_required: shows the section's "Confirm it's you" panel (`panel`, passkey or password as
 *   the answer's `step_up.methods` say) and retries after the step-up; cancelling resolves to null;
 * - approval_required: when an approved request for exactly this change exists, retries with its
 *   id (or uses `approvalId` when given); otherwise the answer goes back to the caller, whose alert
 *   explains and offers to request the approval;
 * - 401 (session ended, or reauthentication_required by the organization's policies): leaves for
 *   the sign-in page with return_to this view, and resolves to null.
 */
export function useConsoleApi(): { send: Send; panel: ReactNode } {
  const { csrf } = useAccount();
  const { organization, can } = useConsole();
  const { guarded, panel } = useStepUp();
  const organizationId = organization.id;
  const mayListApprovals = can('approvals.decide');

  const send = useCallback(
    async function send<T>(path: string, options: SendOptions = {}, approvalId = options.approvalId): Promise<ApiResult<T> | null> {
      let target = organizationPath(organizationId, path);
      let body = options.body;
      if (approvalId && options.approval === 'query') target = withQuery(target, { approval_id: approvalId });
      if (approvalId && options.approval === 'body') body = { ...(body as object), approval_id: approvalId };
      const headers = options.idempotent ? { 'Idempotency-Key': idempotencyKey() } : undefined;
      const result = await guarded(() => callApi<T>(target, body, { csrf, method: options.method ?? 'POST', headers }));
      if (!result || leftForSignIn(result)) return null;
      if (!approvalId && options.approval && mayListApprovals && isApprovalRequired(result)) {
        const approved = await approvedRequest(organizationId, result.body.approval!);
        // A new request (approval_id added): a new Idempotency-Key, since the first answer is final for its key.
        if (approved) return send<T>(path, options, approved.id);
      }
      const answer = explained(result);
      if (isApprovalRequired(answer)) {
        const { action, target } = answer.body.approval!;
        approvalRequests.set(answer.body, (reason) =>
          send<Approval>('/approvals', { body: { action, target, ...(reason ? { reason } : {}) }, idempotent: true }),
        );
      }
      return answer;
    },
    [csrf, guarded, organizationId, mayListApprovals],
  ) as Send;

  return { send, panel };
}

/**
 * Every console action that succeeds says so here. The alerts of earlier failures elsewhere on the
 * page are then out of date ("must keep at least one active owner" beside a later success), so each
 * action clears its own errors when another one succeeds. One channel for the page: only one
 * organization's console is mounted at a time.
 */
const succeeded = new EventTarget();

/**
 * Pending state and the alert of one form or button: field errors go next to `fields`, anything else
 * to `alert` (role="alert"). For approval_required, the alert offers to request that approval (or
 * says whom to ask). Errors clear when this or any other console action succeeds.
 */
export function useConsoleAction(fields?: readonly string[]) {
  const action = useApiAction({ fields });
  const { run: runAction, clearErrors } = action;
  const [approval, setApproval] = useState<PendingApproval | null>(null);
  // An approval requested from this action's alert: said until the action runs again.
  const [requested, setRequested] = useState(false);
  const [self] = useState(() => ({}));

  useEffect(() => {
    const clear = (event: Event) => {
      if ((event as CustomEvent).detail === self) return;
      clearErrors();
      setApproval(null);
    };
    succeeded.addEventListener('success', clear);
    return () => succeeded.removeEventListener('success', clear);
  }, [clearErrors, self]);

  const run = useCallback(
    async <T,>(call: () => Promise<ApiResult<T> | null>) => {
      setApproval(null);
      setRequested(false);
      const result = await runAction(call);
      if (result && isApprovalRequired(result)) setApproval({ ...result.body.approval!, request: approvalRequests.get(result.body) });
      if (result?.ok) succeeded.dispatchEvent(new CustomEvent('success', { detail: self }));
      return result;
    },
    [runAction, self],
  );

  return {
    pending: action.pending,
    error: action.error,
    fieldErrors: action.fieldErrors,
    clearErrors: action.clearErrors,
    setError: action.setError,
    run,
    alert: <ConsoleAlert message={action.error} approval={approval} requested={requested} onRequested={() => setRequested(true)} />,
  };
}

/** The change an action was refused for want of an approval, and how to request that approval (absent for a bare readApi answer). */
type PendingApproval = NonNullable<ConsoleProblem['approval']> & { request?: RequestApproval };

function ConsoleAlert({
  message,
  approval,
  requested,
  onRequested,
}: {
  message: string | null;
  approval: PendingApproval | null;
  requested: boolean;
  onRequested: () => void;
}) {
  const { can } = useConsole();
  const request = can('approvals.decide') ? approval?.request : undefined;
  return (
    <>
      {message && (
        <div role="alert" className="error auth-alert console-alert">
          <p>{message}</p>
          {approval && !request && (
            <p>
              Ask an administrator who decides approvals to request and approve this change (“
              {describeChange(approval.action, approval.target, () => undefined)}”), then try again.
            </p>
          )}
        </div>
      )}
      {message && request && !requested && <ApprovalOffer request={request} onRequested={onRequested} />}
      {requested && <RequestedNote />}
    </>
  );
}

/**
 * "Request approval" for exactly the refused change, with an optional reason for the approver. Not a
 * form of its own: the alert often sits inside the refused change's form, so the reason has no name
 * (it is not part of that form's data) and Enter in it requests rather than resubmitting the change.
 */
function ApprovalOffer({ request, onRequested }: { request: RequestApproval; onRequested: () => void }) {
  const action = useConsoleAction();
  const [reason, setReason] = useState('');
  const reasonId = useId();

  async function submit() {
    const result = await action.run(() => request(reason.trim()));
    if (result?.ok) onRequested();
  }

  return (
    <div role="group" aria-label="Request approval for this change" className="console-approval-offer">
      <div className="auth-field">
        <label htmlFor={reasonId}>Reason for the approver (optional)</label>
        <input
          id={reasonId}
          type="text"
          autoComplete="off"
          maxLength={500}
          value={reason}
          onChange={(event) => setReason(event.target.value)}
          onKeyDown={(event) => {
            if (event.key !== 'Enter') return;
            event.preventDefault();
            void submit();
          }}
        />
      </div>
      <div>
        <button type="button" onClick={submit} disabled={action.pending}>
          Request approval
        </button>
      </div>
      {action.alert}
    </div>
  );
}

function RequestedNote() {
  const { organization } = useConsole();
  const ref = useRef<HTMLParagraphElement>(null);
  // The form that had focus is gone: continue from the note, which says what happens next.
  useEffect(() => ref.current?.focus(), []);
  return (
    <p ref={ref} tabIndex={-1} role="status" className="auth-status console-requested">
      Approval requested. Once another administrator approves it, apply it from <Link href={consoleHref(organization.id, 'approvals')}>Approvals</Link>, or do
      this change again: the approved request is then used.
    </p>
  );
}

/**
 * A collection of the selected organization (`path` relative to it, with its filters), loaded when
 * the path changes; `loadMore` follows next_cursor. `items` is null until the first page arrives.
 */
export function useCollection<T>(path: string | null, field: string) {
  const { organization } = useConsole();
  return usePagedCollection<T>(path === null ? null : organizationPath(organization.id, path), field, readApi);
}
