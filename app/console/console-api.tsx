'use client';

import Link from 'next/link';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { callContract } from '../_components/api/call';
import { isApprovalRequired, useApi, type Api, type ApiProblem, type ApprovalNeeded, type Call } from '../_components/api/use-api';
import type { ApiResult } from '../_components/auth/api';
import { leftForSignIn } from '../_components/auth/signed-in-api';
import { useContractCollection, useContractList } from '../_components/collection-state';
import { useApiAction } from '../_components/auth/use-api-action';
import type { CallInput } from '@/lib/contract/client';
import type { CollectionContract } from '@/lib/contract/wire';
import type { GatedChange } from '@/lib/contract/approvals';
import { isPermission } from '@/lib/contract/permissions';
import { CONTRACTS } from '@/lib/http/contracts';
import { useConsole } from './console-context';
import type { Approval } from './contract-types';
import { describeChange } from './gated-changes';
import { consoleHref } from './sections';

/** Problems reworded for people where the API's own words are for programs. */
function explained<T>(result: ApiResult<T>): ApiResult<T> {
  if (result.ok) return result;
  const problem = result.body as ApiProblem;
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

/**
 * A read from the browser with the console's handling of ended sessions and refusals. Reads need no
 * step-up, so no panel: the lists of every section share this one.
 */
const readCall = (async (contract, input) => {
  const result = await callContract(contract, input);
  leftForSignIn(result);
  return explained(result);
}) as Call;

/** An approved, unused, unexpired request for exactly this change, if the caller may list approvals. */
async function approvedRequest(organizationId: string, wanted: ApprovalNeeded): Promise<string | null> {
  const result = await callContract(CONTRACTS.listOrganizationApprovals, { params: { id: organizationId }, query: { status: 'approved' } });
  if (!result.ok) return null;
  const now = Date.now();
  const found = result.body.approvals.find(
    (approval) =>
      approval.action === wanted.action && approval.target === wanted.target && approval.consumed_at === null && Date.parse(approval.expires_at) > now,
  );
  return found?.id ?? null;
}

type RequestApproval = (reason: string) => Promise<ApiResult<Approval> | null>;

/**
 * How to request the approval an approval_required answer names (the approvals operation with its
 * action and target), through the `api` that got the answer, so a step-up shows in that section's
 * panel. Kept beside the problem (keyed by its body) rather than in it: a problem stays plain data.
 */
const approvalRequests = new WeakMap<object, RequestApproval>();

/**
 * The one way a section calls the selected organization's API: `api.<operationId>(...)` by contract
 * (app/_components/api/use-api.tsx adds CSRF, Idempotency-Keys, step-up in `panel`, the sign-in
 * redirect). What the console adds:
 * - approval_required: when an approved request for exactly this change exists and the person may
 *   decide approvals, the change is made again with its id; otherwise the answer goes back to the
 *   caller, whose alert explains and offers to request the approval;
 * - refusals reworded for people (`explained`).
 * `call(contract, input, approvalId)` makes a change with a given approved request (the inbox's Apply).
 */
export function useConsoleApi(): { api: Api; call: Call; panel: ReturnType<typeof useApi>['panel'] } {
  const { organization, can } = useConsole();
  const organizationId = organization.id;
  const mayListApprovals = can('approvals.decide');
  // The explanation registers how to request the approval through this very api (built just below).
  const self = useRef<Api | null>(null);

  const findApproval = useCallback((needed: ApprovalNeeded) => approvedRequest(organizationId, needed), [organizationId]);
  const explain = useCallback(
    (result: ApiResult) => {
      const answer = explained(result);
      if (isApprovalRequired(answer)) {
        const { action, target } = answer.body.approval;
        approvalRequests.set(answer.body, async (reason) => {
          // The refusal names a gated change of the catalogue (lib/contract/approvals.ts).
          const body = { action: action as GatedChange, target, ...(reason ? { reason } : {}) };
          return (await self.current?.requestOrganizationApproval({ params: { id: organizationId }, body })) ?? null;
        });
      }
      return answer;
    },
    [organizationId],
  );
  const { api, call, panel } = useApi({ findApproval: mayListApprovals ? findApproval : undefined, explain });
  self.current = api;
  return { api, call, panel };
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
      if (result && isApprovalRequired(result)) setApproval({ ...result.body.approval, request: approvalRequests.get(result.body) });
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

/** The change an action was refused for want of an approval, and how to request that approval (absent for a read's answer). */
type PendingApproval = ApprovalNeeded & { request?: RequestApproval };

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
 * A collection of the selected organization by its contract (input: its path parameters and filters;
 * null: nothing to load yet); `loadMore` follows next_cursor. `items` is null until the first page arrives.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any collection's contract may be listed
export function useCollection<C extends CollectionContract<any, any, any, any, any, any>>(contract: C, input: CallInput<C> | null) {
  return useContractCollection(contract, input, readCall);
}

/** The organization's roles (answered whole, in the collection envelope). */
export function useRoles() {
  return useContractList(CONTRACTS.listOrganizationRoles, { params: { id: useConsole().organization.id } }, readCall, 'roles');
}

/** The organization's policies, each with its default (answered whole, in the collection envelope). */
export function usePolicies() {
  return useContractList(CONTRACTS.listOrganizationPolicies, { params: { id: useConsole().organization.id } }, readCall, 'policies');
}
