'use client';

import { useEffect, useState, type FormEvent } from 'react';
import { CONTRACTS } from '@/lib/http/contracts';
import { callContract } from '../_components/api/call';
import { CodeInput } from '../_components/auth/code-input';
import { EmailField } from '../_components/auth/email-field';
import { ErrorAlert } from '../_components/auth/error-alert';
import { fieldValue, useApiAction } from '../_components/auth/use-api-action';

interface Sent {
  email: string;
  challengeId: string;
}

/** Another card asking for a code for `email` (empty: for an address still to be typed here); `id` makes each ask new. */
export interface CodeRequest {
  email: string;
  id: number;
}

/** Sign-in with a mailed six-digit code: works for anyone who can read their mail, no device needed. */
export function EmailCodeSignIn({ returnTo, request = null }: { returnTo: string; request?: CodeRequest | null }) {
  const [sent, setSent] = useState<Sent | null>(null);
  const [askedFor, setAskedFor] = useState<CodeRequest | null>(null);
  const { pending, error, fieldErrors, clearErrors, run } = useApiAction({ fields: ['email', 'code'] });

  async function send(email: string) {
    const result = await run(() => callContract(CONTRACTS.startEmailCodeSignIn, { body: { email } }));
    if (result?.ok) setSent({ email, challengeId: result.body.challenge_id });
  }

  // A request from the password card: send the code to the address typed there, or, without one,
  // open this card's address field for it.
  useEffect(() => {
    if (!request) return;
    setAskedFor(request);
    setSent(null);
    clearErrors();
    if (request.email) void send(request.email);
    // Only a new request counts (`send` and `clearErrors` are not triggers).
  }, [request]);

  async function sendCode(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    await send(fieldValue(event.currentTarget, 'email'));
  }

  async function signIn(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!sent) return;
    const body = { challenge_id: sent.challengeId, code: fieldValue(event.currentTarget, 'code') };
    const result = await run(() => callContract(CONTRACTS.completeEmailCodeSignIn, { body }), { navigatesOnSuccess: true });
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
            If an account uses <strong className="auth-email">{sent.email}</strong>, a sign-in code is on its way. It works once and expires in 10 minutes.
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
        <form className="stack" onSubmit={sendCode} key={`email-${askedFor?.id ?? 0}`}>
          <EmailField label="E-mail address for a code" error={fieldErrors.email} autoFocus={askedFor !== null && !askedFor.email} />
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
