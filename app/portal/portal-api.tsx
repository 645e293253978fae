'use client';

import { useCallback, type ReactNode } from 'react';
import { callApi, localProblem, type ApiResult } from '../_components/auth/api';
import { idempotencyKey, leftForSignIn } from '../_components/auth/signed-in-api';
import { useAccount } from '@/app/_components/account-context';
import { useStepUp } from '@/app/_components/step-up';

export interface PortalSendOptions {
  /** POST unless said otherwise. */
  method?: 'POST' | 'PATCH' | 'DELETE';
  body?: unknown;
  /**
   * Send an Idempotency-Key (operations that take one): one key covers the action and its retry after
   * a step-up, and a creation retried after a lost answer gets its one-time secret back.
   */
  idempotent?: boolean;
}

export type PortalSend = <T>(path: string, options?: PortalSendOptions) => Promise<ApiResult<T> | null>;
export type PortalRead = <T>(path: string) => Promise<ApiResult<T>>;

/**
 * The one way a portal section talks to the developer API. Every developer operation wants a recent
 * step-up, lists included: a 403 step_up_required shows the section's "Confirm it's you" panel
 * (`panel`, the shared one of the account pages) and the call is retried after it. `send` adds the
 * CSRF token and, where asked, an Idempotency-Key, and resolves to null when the person cancels the
 * step-up; `read` turns a cancelled step-up into a problem the list shows. A 401 (the session ended)
 * leaves for the sign-in page, which comes back here.
 */
export function usePortalApi(): { send: PortalSend; read: PortalRead; panel: ReactNode } {
  const { csrf } = useAccount();
  const { guarded, panel } = useStepUp();

  const send = useCallback(
    async function send<T>(path: string, options: PortalSendOptions = {}): Promise<ApiResult<T> | null> {
      const headers = options.idempotent ? { 'Idempotency-Key': idempotencyKey() } : undefined;
      const result = await guarded(() => callApi<T>(path, options.body, { csrf, method: options.method ?? 'POST', headers }));
      if (!result || leftForSignIn(result)) return null;
      return result;
    },
    [csrf, guarded],
  ) as PortalSend;

  const read = useCallback(
    async function read<T>(path: string): Promise<ApiResult<T>> {
      const result =
        (await guarded(() => callApi<T>(path))) ??
        localProblem('This list is shown once you confirm it’s you. Reload the page to try again.', 'step_up_cancelled');
      leftForSignIn(result);
      return result;
    },
    [guarded],
  ) as PortalRead;

  return { send, read, panel };
}
