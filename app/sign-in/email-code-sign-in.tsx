'use client';

import { useState, type FormEvent } from 'react';
import { callApi, type SessionView } from '../_components/auth/api';
import { CodeInput } from '../_components/auth/code-input';
import { EmailField } from '../_components/auth/email-field';
import { ErrorAlert } from '../_components/auth/error-alert';
import { fieldValue, useApiAction } from '../_components/auth/use-api-action';

interface Sent {
  email: string;
  challengeId: string;
}

/** Sign-in with a mailed six-digit code: works for anyone who can read their mail, no device needed. */
export function EmailCodeSignIn({ returnTo }: { returnTo: string }) {
  const [sent, setSent] = useState<Sent | null>(null);
  const { pending, error, fieldErrors, clearErrors, run } = useApiAction({ fields: ['email', 'code'] });

  async function sendCode(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const email = fieldValue(event.currentTarget, 'email');
    const result = await run(() => callApi<{ challenge_id: string }>('/api/auth/signin/email-otp/start', { email }));
    if (result?.ok) setSent({ email, challengeId: result.body.challenge_id });
  }

  async function signIn(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!sent) return;
    const body = { challenge_id: sent.challengeId, code: fieldValue(event.currentTarget, 'code') };
    const result = await run(() => callApi<SessionView>('/api/auth/signin/email-otp/complete', body), { navigatesOnSuccess: true });
    if (result?.ok) window.location.assign(returnTo);
  }

  function startOver() {
    clearErrors();
    setSent(null);
  }

  return (
    <section className="card auth-card">
      <h2>With an e-mail code</h2>
      {sent ? (
        <form className="stack" onSubmit={signIn} key="code">
          <p className="hint">
            If an account uses <strong className="auth-email">{sent.email}</strong>, a sign-in code is on its way. It works once and expires in
            10 minutes.
          </p>
          <CodeInput label="Code" error={fieldErrors.code} />
          <ErrorAlert message={error} />
          <div className="auth-actions">
            <button type="submit" disabled={pending}>
              Sign in with code
            </button>
            <button type="button" className="auth-link-button" onClick={startOver} disabled={pending}>
              Use a different address
            </button>
          </div>
        </form>
      ) : (
        <form className="stack" onSubmit={sendCode} key="email">
          <EmailField label="E-mail address for a code" error={fieldErrors.email} />
          <ErrorAlert message={error} />
          <div>
            <button type="submit" disabled={pending}>
              E-mail me a code
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
