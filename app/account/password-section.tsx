'use client';

import { useId, useState, type FormEvent } from 'react';
import { callContract } from '../_components/api/call';
import { useApi } from '../_components/api/use-api';
import { AccountUsername } from '../_components/auth/account-username';
import { isStepUpRequired, type ApiResult } from '../_components/auth/api';
import { ErrorAlert, StatusNote } from '../_components/auth/error-alert';
import { useFieldError } from '../_components/auth/field-error';
import { NewPasswordField } from '../_components/auth/new-password-field';
import { passwordValue, useApiAction } from '../_components/auth/use-api-action';
import { useAccount } from '@/app/_components/account-context';
import type { CallInput, CallOutput } from '@/lib/contract/client';
import { CONTRACTS, type Contracts } from '@/lib/http/contracts';

type Change = CallInput<Contracts['changePassword']>['body'];
type Changed = CallOutput<Contracts['changePassword']>;
const FIELDS = ['current_password', 'new_password'] as const;

/**
 * Setting a first password (passkey-only account) needs the usual step-up. Changing one takes the
 * current password (ASVS V6.2.3); when the step-up has gone stale, that same password is the
 * re-authentication, so nobody is asked for it twice.
 */
export function PasswordSection({ hasPassword, onChanged }: { hasPassword: boolean; onChanged: () => Promise<void> }) {
  const { csrf } = useAccount();
  const { api, panel } = useApi();
  const { pending, error, fieldErrors, run } = useApiAction({ fields: FIELDS });
  const [done, setDone] = useState<string | null>(null);
  const [passwordSet, setPasswordSet] = useState(hasPassword);

  // Called directly, not through `api`: a step_up_required here is answered with the current password, not the panel.
  async function changeWithCurrent(current: string, body: Change): Promise<ApiResult<Changed>> {
    const attempt = () => callContract(CONTRACTS.changePassword, { body }, { csrf });
    const first = await attempt();
    if (!isStepUpRequired(first)) return first;
    const stepUp = await callContract(CONTRACTS.stepUpWithPassword, { body: { password: current } }, { csrf });
    if (stepUp.ok) return attempt();
    if (stepUp.body.code !== 'invalid_credentials') return stepUp;
    return { ...stepUp, body: { ...stepUp.body, errors: [{ path: 'body.current_password', message: 'This is not your current password.' }] } };
  }

  async function change(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    setDone(null);
    const newPassword = passwordValue(form, 'new_password');
    const result = passwordSet
      ? await run(() => {
          const current = passwordValue(form, 'current_password');
          return changeWithCurrent(current, { current_password: current, new_password: newPassword });
        })
      : await run(() => api.changePassword({ body: { new_password: newPassword } }));
    if (!result?.ok) return;
    form.reset();
    setPasswordSet(true);
    const others = result.body.other_sessions_signed_out;
    setDone(
      `Your password was ${passwordSet ? 'changed' : 'set'}.${others > 0 ? ` ${others} other ${others === 1 ? 'session was' : 'sessions were'} signed out.` : ''}`,
    );
    await onChanged();
  }

  return (
    <section aria-labelledby="password-heading">
      <h2 id="password-heading">Password</h2>
      <form className="stack card auth-card" onSubmit={change}>
        <p className="hint">
          {passwordSet
            ? 'Changing your password signs out your other sessions.'
            : 'You sign in with passkeys only. Adding a password gives you a second way in.'}
        </p>
        <AccountUsername />
        {passwordSet ? <CurrentPasswordField error={fieldErrors.current_password} /> : null}
        <NewPasswordField name="new_password" error={fieldErrors.new_password} />
        <ErrorAlert message={error} />
        <StatusNote message={done} />
        <div>
          <button type="submit" disabled={pending}>
            {passwordSet ? 'Change password' : 'Add a password'}
          </button>
        </div>
      </form>
      {panel}
    </section>
  );
}

function CurrentPasswordField({ error }: { error?: string }) {
  const id = useId();
  const invalid = useFieldError<HTMLInputElement>(id, error);
  return (
    <div className="auth-field">
      <label htmlFor={id}>Current password</label>
      <input ref={invalid.ref} id={id} name="current_password" type="password" autoComplete="current-password" required {...invalid.props} />
      {invalid.message}
    </div>
  );
}
