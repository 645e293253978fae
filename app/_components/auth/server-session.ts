import { headers } from 'next/headers';
import { cache } from 'react';
import type { CallInput, CallOutput } from '@/lib/contract/client';
import type { AnyContract } from '@/lib/contract/wire';
import { CONTRACTS } from '@/lib/http/contracts';
import { callOperation } from '@/lib/http/internal-call';

/**
 * Server components call the documented API in-process as the visitor: the incoming cookie is the
 * credential, and the request id keeps the log lines of one page view together.
 */
export async function callAsVisitor<C extends AnyContract>(contract: C, input: CallInput<C>): Promise<CallOutput<C> | null> {
  const incoming = await headers();
  const forwarded: Record<string, string> = { cookie: incoming.get('cookie') ?? '' };
  // The request id keeps log lines together; the peer stamp and forwarded-for keep per-client rate
  // limits keyed on the visitor rather than on the server itself.
  for (const name of ['x-request-id', 'x-identity-peer', 'x-forwarded-for']) {
    const value = incoming.get(name);
    if (value) forwarded[name] = value;
  }
  const result = await callOperation(contract, input, forwarded);
  return result.ok ? result.body : null;
}

/**
 * The visitor's session, or null when signed out (or when the service cannot tell). Read once per
 * page view: the header's navigation and the page itself share the answer (React's request cache).
 */
export const visitorSession = cache(async (): Promise<CallOutput<typeof CONTRACTS.getSession> | null> => {
  // Without any cookie there is nothing to resolve; skip the call on anonymous page views.
  if (!(await headers()).get('cookie')) return null;
  return callAsVisitor(CONTRACTS.getSession, {});
});
