'use client';

import { useId, type FormEvent } from 'react';
import { callApi, type SessionView } from '../_components/auth/api';
import { EmailField } from '../_components/auth/email-field';
import { ErrorAlert } from '../_components/auth/error-alert';
import { useFieldError } from '../_components/auth/field-error';
import { fieldValue, passwordValue, useApiAction } from '../_components/auth/use-api-action';

export function PasswordSignIn({ returnTo }: { returnTo: string }) {
  const passwordId = useId();
  const { pending, error, fieldErrors, run } = useApiAction({ fields: ['email', 'password'] });
  const password = useFieldError<HTMLInputElement>(passwordId, fieldErrors.password);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const body = { email: fieldValue(form, 'email'), password: passwordValue(form, 'password') };
    const result = await run(() => callApi<SessionView>('/api/auth/signin/password', body), { navigatesOnSuccess: true });
    if (result?.ok) {
      window.location.assign(returnTo);
    } else if (password.ref.current && !result?.body.errors?.length) {
      // The failure is generic on purpose; retyping the password is the likely next step.
      password.ref.current.value = '';
      password.ref.current.focus();
    }
  }

  return (
    <section className="card auth-card">
      <h2>With your password</h2>
      <form className="stack" onSubmit={submit}>
        {/* "username webauthn" also lets the browser offer passkeys in this field's autofill. */}
        <EmailField autoComplete="username webauthn" error={fieldErrors.email} />
        <div className="auth-field">
          <label htmlFor={passwordId}>Password</label>
          <input ref={password.ref} id={passwordId} name="password" type="password" autoComplete="current-password" required {...password.props} />
          {password.message}
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
