'use client';

import { useId, useState, type FormEvent } from 'react';
import { CONTRACTS } from '@/lib/http/contracts';
import { callContract } from '../_components/api/call';
import type { ApiResult } from '../_components/auth/api';
import { EmailField } from '../_components/auth/email-field';
import { ErrorAlert } from '../_components/auth/error-alert';
import { useFieldError } from '../_components/auth/field-error';
import { fieldValue, passwordValue, useApiAction } from '../_components/auth/use-api-action';
import { EXPLAIN_AFTER, usePasswordFailures } from './password-failures';
import { PasswordPauseNote, type LockoutPolicy } from './password-pause-note';

/**
 * A spent rate limit is a different thing from the password pause (seconds for everyone at this
 * address, against minutes for one account), so it gets its own sentence with the wait the API sent.
 */
function rateLimited(result: ApiResult): string {
  const wait = !result.ok && result.retryAfter !== undefined ? `${result.retryAfter} ${result.retryAfter === 1 ? 'second' : 'seconds'}` : 'a minute';
  return `Too many sign-in attempts from here in a short time. Wait ${wait}, then try again.`;
}

export function PasswordSignIn({ returnTo, lockout, onCodeInstead }: { returnTo: string; lockout: LockoutPolicy; onCodeInstead: (email: string) => void }) {
  const passwordId = useId();
  const noteId = useId();
  const { pending, error, setError, fieldErrors, run } = useApiAction({ fields: ['email', 'password'] });
  const { failures, failed, succeeded } = usePasswordFailures();
  const [rateLimitSeen, setRateLimitSeen] = useState(false);
  const [lastEmail, setLastEmail] = useState('');
  const explain = failures >= EXPLAIN_AFTER || rateLimitSeen;
  const password = useFieldError<HTMLInputElement>(passwordId, fieldErrors.password, explain ? noteId : undefined);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const body = { email: fieldValue(form, 'email'), password: passwordValue(form, 'password') };
    setLastEmail(body.email);
    const result = await run(() => callContract(CONTRACTS.signInWithPassword, { body }), { navigatesOnSuccess: true });
    if (!result || result.ok) {
      if (result?.ok) {
        succeeded();
        window.location.assign(returnTo);
      }
      return;
    }
    if (result.status === 429) {
      setRateLimitSeen(true);
      setError(rateLimited(result));
    }
    if (result.status === 401 || result.status === 429) failed();
    if (password.ref.current && !result.body.errors?.length) {
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
      {explain && <PasswordPauseNote id={noteId} policy={lockout} onCodeInstead={() => onCodeInstead(lastEmail)} />}
    </section>
  );
}
