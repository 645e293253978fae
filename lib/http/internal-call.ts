import { getConfig } from '@/lib/config';
import { requestOf, type CallInput, type CallOutput } from '@/lib/contract/client';
import type { AnyContract } from '@/lib/contract/wire';
import { runOperation } from './pipeline';
import { OPERATIONS } from './registry';

export type InternalResult<T> = { ok: true; status: number; body: T } | { ok: false; status: number; body: unknown };

/**
 * Lets server-rendered pages call the documented API in-process, through the same pipeline (every
 * protection applies) without a network round trip or knowledge of where the server listens. The call
 * names its operation by contract, as the browser's calls do, so the answer is typed by the contract.
 */
export async function callOperation<C extends AnyContract>(
  contract: C,
  input: CallInput<C>,
  headers: Record<string, string> = {},
): Promise<InternalResult<CallOutput<C>>> {
  const op = OPERATIONS.find((candidate) => candidate.id === contract.id);
  if (!op) throw new Error(`No operation ${contract.id} is served.`);
  const request = requestOf(contract, input);
  const body = request.body === undefined ? undefined : JSON.stringify(request.body);
  const response = await runOperation(op, new Request(`${getConfig().baseUrl}${request.url}`, { method: contract.method, headers, body }));
  const answer: unknown = await response.json();
  return response.ok ? { ok: true, status: response.status, body: answer as CallOutput<C> } : { ok: false, status: response.status, body: answer };
}
