'use client';

import { useCallback, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { AccountUsername } from './auth/account-username';
import { CONTRACTS } from '@/lib/http/contracts';
import { callContract } from './api/call';
import { isStepUpRequired, type ApiResult } from './auth/api';
import { ErrorAlert } from './auth/error-alert';
import { runPasskeyCeremony, usePasskeySupport } from './auth/passkey';
import { passwordValue, useApiAction } from './auth/use-api-action';
import { useAccount } from './account-context';

type Method = 'passkey' | 'password';

interface PendingStepUp {
  methods: Method[];
  confirmed: () => void;
  cancelled: () => void;
}

/**
 * Wraps actions that may need a recent re-authentication. When one answers 403 step_up_required,
 * the section shows the "Confirm it's you" panel (rendered where the section puts `panel`) and the
 * action waits; after a successful step-up it is retried automatically and the caller receives the
 * retry's result. Cancelling resolves with null, which callers treat as "nothing happened".
 */
export function useStepUp(): { guarded: <T>(action: () => Promise<ApiResult<T>>) => Promise<ApiResult<T> | null>; panel: ReactNode } {
  const [pending, setPending] = useState<PendingStepUp | null>(null);
  // Every action waiting on the one panel: two calls refused together (a page loading two lists) are
  // both retried after one confirmation, or both given up when it is cancelled.
  const waiting = useRef<{ retry: () => void; giveUp: () => void }[]>([]);

  const guarded = useCallback(async function guard<T>(action: () => Promise<ApiResult<T>>): Promise<ApiResult<T> | null> {
    const first = await action();
    if (!isStepUpRequired(first)) return first;
    return new Promise((resolve) => {
      waiting.current.push({
        // Guarded again: should the fresh step-up already be too old, the panel simply comes back.
        retry: () => void guard(action).then(resolve),
        giveUp: () => resolve(null),
      });
      setPending({
        methods: first.body.step_up?.methods ?? ['passkey', 'password'],
        confirmed: () => {
          setPending(null);
          for (const waiter of waiting.current.splice(0)) waiter.retry();
        },
        cancelled: () => {
          setPending(null);
          for (const waiter of waiting.current.splice(0)) waiter.giveUp();
        },
      });
    });
  }, []);

  const panel = pending ? <StepUpPanel {...pending} /> : null;
  return { guarded, panel };
}

function StepUpPanel({ methods, confirmed, cancelled }: PendingStepUp) {
  const headingId = useId();
  const passwordId = useId();
  const { csrf, hasPasskeys } = useAccount();
  const supported = usePasskeySupport();
  const passkey = useApiAction();
  const password = useApiAction();
  const busy = passkey.pending || password.pending;
  const offerPasskey = methods.includes('passkey') && hasPasskeys && supported === true;
  // Only a passkey counts here, and this browser (or this account) has none to offer: say so, rather
  // than show a panel with nothing to press but Cancel. Unknown (null) until the browser has answered.
  const stuck = !methods.includes('password') && supported !== null && !offerPasskey;

  async function withPasskey() {
    const result = await passkey.run(() =>
      runPasskeyCeremony({
        kind: 'authenticate',
        options: CONTRACTS.stepUpPasskeyOptions,
        complete: CONTRACTS.stepUpWithPasskey,
        call: { csrf },
      }),
    );
    if (result?.ok) confirmed();
  }

  async function withPassword(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const result = await password.run(() => callContract(CONTRACTS.stepUpWithPassword, { body: { password: passwordValue(form, 'password') } }, { csrf }));
    if (result?.ok) confirmed();
    else form.reset();
  }

  return (
    <section className="auth-step-up" aria-labelledby={headingId}>
      <h2 id={headingId}>{"Confirm it's you"}</h2>
      <p className="hint">This change needs a recent confirmation. Afterwards it continues on its own.</p>
      {offerPasskey && (
        <div className="stack">
          <div>
            <button type="button" onClick={withPasskey} disabled={busy} autoFocus={!methods.includes('password')}>
              Use a passkey
            </button>
          </div>
          <ErrorAlert message={passkey.error} />
        </div>
      )}
      {stuck && (
        <p role="alert" className="error auth-alert">
          {supported === false
            ? 'This change can only be confirmed with a passkey, and this browser cannot use passkeys. Open this page in a browser that supports them (a recent Chrome, Edge, Firefox or Safari), or on the device that holds your passkey.'
            : 'This change can only be confirmed with a passkey, and your account has none yet. Add one under Passkeys on your account page, then try again.'}
        </p>
      )}
      {methods.includes('password') && (
        <form className="stack" onSubmit={withPassword}>
          <AccountUsername />
          <div className="auth-field">
            <label htmlFor={passwordId}>Current password</label>
            <input id={passwordId} name="password" type="password" autoComplete="current-password" required autoFocus />
          </div>
          <ErrorAlert message={password.error} />
          <div>
            <button type="submit" disabled={busy}>
              Confirm with password
            </button>
          </div>
        </form>
      )}
      <div>
        <button type="button" className="auth-secondary" onClick={cancelled} disabled={busy} autoFocus={stuck}>
          Cancel
        </button>
      </div>
    </section>
  );
}
