'use client';

import { useState, type FormEvent } from 'react';
import { callApi } from '../_components/auth/api';
import { ErrorAlert, StatusNote } from '../_components/auth/error-alert';
import { NewPasswordField } from '../_components/auth/new-password-field';
import { passwordValue, useApiAction } from '../_components/auth/use-api-action';
import { useAccount } from './account-context';
import { useStepUp } from './step-up';

export function PasswordSection({ onChanged }: { onChanged: () => Promise<void> }) {
  const { csrf } = useAccount();
  const { guarded, panel } = useStepUp();
  const { pending, error, run } = useApiAction();
  const [done, setDone] = useState<string | null>(null);

  async function change(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    setDone(null);
    const body = { new_password: passwordValue(form, 'new_password') };
    const result = await run(() => guarded(() => callApi<{ other_sessions_signed_out: number }>('/api/auth/password/change', body, { csrf })));
    if (!result?.ok) return;
    form.reset();
    const others = result.body.other_sessions_signed_out;
    setDone(`Your password was changed.${others > 0 ? ` ${others} other ${others === 1 ? 'session was' : 'sessions were'} signed out.` : ''}`);
    await onChanged();
  }

  return (
    <section aria-labelledby="password-heading">
      <h2 id="password-heading">Password</h2>
      <form className="stack card auth-card" onSubmit={change}>
        <p className="hint">Setting a password signs out your other sessions. If you have none yet, this adds one.</p>
        <NewPasswordField name="new_password" />
        <ErrorAlert message={error} />
        <StatusNote message={done} />
        <div>
          <button type="submit" disabled={pending}>
            Change password
          </button>
        </div>
      </form>
      {panel}
    </section>
  );
}
