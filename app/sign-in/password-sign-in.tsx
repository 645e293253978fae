'use client';

import { useId, useRef, type FormEvent } from 'react';
import { callApi, type SessionView } from '../_components/auth/api';
import { EmailField } from '../_components/auth/email-field';
import { ErrorAlert } from '../_components/auth/error-alert';
import { fieldValue, passwordValue, useApiAction } from '../_components/auth/use-api-action';

export function PasswordSignIn({ returnTo }: { returnTo: string }) {
  const passwordId = useId();
  const passwordInput = useRef<HTMLInputElement>(null);
  const { pending, error, run } = useApiAction();

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const body = { email: fieldValue(form, 'email'), password: passwordValue(form, 'password') };
    const result = await run(() => callApi<SessionView>('/api/auth/signin/password', body), { navigatesOnSuccess: true });
    if (result?.ok) {
      window.location.assign(returnTo);
    } else if (passwordInput.current) {
      // The failure is generic on purpose; retyping the password is the likely next step.
      passwordInput.current.value = '';
      passwordInput.current.focus();
    }
  }

  return (
    <section className="card auth-card">
      <h2>With your password</h2>
      <form className="stack" onSubmit={submit}>
        {/* "username webauthn" also lets the browser offer passkeys in this field's autofill. */}
        <EmailField autoComplete="username webauthn" />
        <div className="auth-field">
          <label htmlFor={passwordId}>Password</label>
          <input ref={passwordInput} id={passwordId} name="password" type="password" autoComplete="current-password" required />
        </div>
        <ErrorAlert message={error} />
        <div>
          <button type="submit" disabled={pending}>
            Sign in with password
          </button>
        </div>
      </form>
    </section>
  );
}
