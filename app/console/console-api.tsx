'use client';

import Link from 'next/link';
import { useCallback, useState, type ReactNode } from 'react';
import { callApi, type ApiResult, type Problem } from '../_components/auth/api';
import { idempotencyKey, leftForSignIn } from '../_components/auth/signed-in-api';
import { usePagedCollection, withQuery } from '../_components/collection-state';
import { useApiAction } from '../_components/auth/use-api-action';
import { isPermission } from '@/lib/contract/permissions';
import { useAccount } from '@/app/_components/account-context';
import { useStepUp } from '@/app/_components/step-up';
import { useConsole } from './console-context';
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

/**
 * The one way a section changes something in the selected organization. `send(path, options)`:
 * - adds the CSRF token, and an Idempotency-Key where the operation needs one;
 * - step_up_required: shows the section's "Confirm it's you" panel (`panel`, passkey or password as
 *   the answer's `step_up.methods` say) and retries after the step-up; cancelling resolves to null;
 * - approval_required: when an approved request for exactly this change exists, retries with its
 *   id; otherwise the answer goes back to the caller, whose alert explains and links to Approvals;
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
    async function send<T>(path: string, options: SendOptions = {}, approvalId?: string): Promise<ApiResult<T> | null> {
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
      return explained(result);
    },
    [csrf, guarded, organizationId, mayListApprovals],
  ) as Send;

  return { send, panel };
}

/**
 * Pending state and the alert of one form or button: field errors go next to `fields`, anything else
 * to `alert` (role="alert"), which for approval_required also says how to get the approval.
 */
export function useConsoleAction(fields?: readonly string[]) {
  const action = useApiAction({ fields });
  const { run: runAction } = action;
  const [approval, setApproval] = useState<ConsoleProblem['approval'] | null>(null);

  const run = useCallback(
    async <T,>(call: () => Promise<ApiResult<T> | null>) => {
      setApproval(null);
      const result = await runAction(call);
      if (result && isApprovalRequired(result)) setApproval(result.body.approval);
      return result;
    },
    [runAction],
  );

  return {
    pending: action.pending,
    error: action.error,
    fieldErrors: action.fieldErrors,
    clearErrors: action.clearErrors,
    setError: action.setError,
    run,
    alert: <ConsoleAlert message={action.error} approval={approval} />,
  };
}

function ConsoleAlert({ message, approval }: { message: string | null; approval: ConsoleProblem['approval'] | null }) {
  const { organization, can } = useConsole();
  if (!message) return null;
  return (
    <div role="alert" className="error auth-alert console-alert">
      <p>{message}</p>
      {approval &&
        (can('approvals.decide') ? (
          <p>
            <Link href={consoleHref(organization.id, 'approvals', { action: approval.action, target: approval.target })}>
              Request an approval for this change
            </Link>
            . Once another administrator approves it, do the change again: the approved request is used automatically.
          </p>
        ) : (
          <p>
            Ask an administrator who decides approvals to request and approve “{approval.action}” for “{approval.target}”, then try again.
          </p>
        ))}
    </div>
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
