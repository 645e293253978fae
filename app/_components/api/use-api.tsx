'use client';

/**
 * The one core of every signed-in page's API calls (the console, the portal, the account page): each
 * call is typed by its operation's contract, and the core applies what the contract says instead of
 * each page repeating it:
 * - the CSRF token on unsafe methods; an Idempotency-Key on operations that take one (one key covers
 *   the call and its retry after a step-up);
 * - step_up_required: the page's "Confirm it's you" panel (`panel`), then the same call again;
 *   cancelling resolves to null for a change, and to a problem the list shows for a read;
 * - approval_required on a gated change: with `findApproval`, an approved request for exactly this
 *   change is used (a new call with its approval_id and a new key, as the first answer is final);
 * - 401 (session ended, or the organization wants a fresh sign-in): leaves for the sign-in page,
 *   which comes back here, and resolves to null.
 */
import { useCallback, useMemo, type ReactNode } from 'react';
import { approvalSlot, type CallInput, type CallOutput } from '@/lib/contract/client';
import { isUnsafe, type AnyContract } from '@/lib/contract/wire';
import { CONTRACTS, type Contracts } from '@/lib/http/contracts';
import { useAccount } from '../account-context';
import { useStepUp } from '../step-up';
import { localProblem, type ApiResult, type Problem } from '../auth/api';
import { idempotencyKey, leftForSignIn } from '../auth/signed-in-api';
import { callContract } from './call';

/** A change an organization put behind an approval, as the refusal names it. */
export interface ApprovalNeeded {
  action: string;
  target: string;
}

export interface ApiProblem extends Problem {
  permission?: string;
  approval?: ApprovalNeeded;
  reauthentication?: { reason: string };
}

export interface ApiOptions {
  /** The approved, unused request for exactly this change, if there is one the caller may use. */
  findApproval?: (needed: ApprovalNeeded) => Promise<string | null>;
  /** Rewords a refusal for the page's readers (the API's own words are for programs). */
  explain?: (result: ApiResult) => ApiResult;
}

/** A call by contract; `approvalId`: make a gated change with this approved request (the console's inbox applying it). */
export type Call = <C extends AnyContract>(contract: C, input: CallInput<C>, approvalId?: string) => Promise<ApiResult<CallOutput<C>> | null>;

/** `api.<operationId>(input)`: every catalogued operation, typed by its contract. */
export type Api = { [K in keyof Contracts]: (input: CallInput<Contracts[K]>) => Promise<ApiResult<CallOutput<Contracts[K]>> | null> };

export function isApprovalRequired(result: ApiResult): result is { ok: false; status: number; body: ApiProblem & { approval: ApprovalNeeded } } {
  return !result.ok && result.body.code === 'approval_required' && Boolean((result.body as ApiProblem).approval);
}

const STEP_UP_CANCELLED = 'This is shown once you confirm it’s you. Reload the page to try again.';

export function useApi(options: ApiOptions = {}): { api: Api; call: Call; panel: ReactNode } {
  const { csrf } = useAccount();
  const { guarded, panel } = useStepUp();
  const { findApproval, explain } = options;

  const call = useCallback(
    async function call<C extends AnyContract>(contract: C, input: CallInput<C>, approvalId?: string): Promise<ApiResult<CallOutput<C>> | null> {
      const unsafe = isUnsafe(contract.method);
      const slot = approvalSlot(contract);
      const given = approvalId && slot ? withApproval(input, slot, approvalId) : input;
      const headers = unsafe && contract.idempotency !== 'none' ? { 'Idempotency-Key': idempotencyKey() } : undefined;
      const result = await guarded(() => callContract(contract, given, { csrf, headers }));
      if (result === null) return unsafe ? null : localProblem(STEP_UP_CANCELLED, 'step_up_cancelled');
      if (leftForSignIn(result)) return null;
      if (!approvalId && slot && findApproval && isApprovalRequired(result)) {
        const approved = await findApproval(result.body.approval);
        if (approved) return call(contract, input, approved);
      }
      return (explain ? explain(result) : result) as ApiResult<CallOutput<C>>;
    },
    [csrf, guarded, findApproval, explain],
  ) as Call;

  const api = useMemo(
    () =>
      new Proxy({} as Api, {
        get: (_target, id) => {
          const contract = CONTRACTS[id as keyof Contracts] as AnyContract | undefined;
          if (!contract) throw new Error(`No operation ${String(id)} in the contract catalogue.`);
          return (input: CallInput<AnyContract>) => call(contract, input);
        },
      }),
    [call],
  );

  return { api, call, panel };
}

function withApproval<I>(input: I, slot: 'query' | 'body', approvalId: string): I {
  const given = input as { query?: object; body?: object };
  return { ...input, [slot]: { ...given[slot], approval_id: approvalId } };
}
