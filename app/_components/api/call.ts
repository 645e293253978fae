/**
 * One call of an operation from the browser, by its wire contract: the request is built from the
 * contract (lib/contract/client.ts) and sent same-origin through callApi, so the answer is typed by the
 * contract's response schema instead of a type the page states.
 */
import { requestOf, type CallInput, type CallOutput } from '@/lib/contract/client';
import { isUnsafe, type AnyContract } from '@/lib/contract/wire';
import { callApi, type ApiResult } from '../auth/api';

export interface CallOptions {
  /** The session's CSRF token; sent on unsafe methods only. */
  csrf?: string;
  headers?: Record<string, string>;
}

export async function callContract<C extends AnyContract>(contract: C, input: CallInput<C>, options: CallOptions = {}): Promise<ApiResult<CallOutput<C>>> {
  const request = requestOf(contract, input);
  return callApi<CallOutput<C>>(request.url, request.body, {
    method: contract.method,
    csrf: isUnsafe(contract.method) ? options.csrf : undefined,
    headers: options.headers,
  });
}
