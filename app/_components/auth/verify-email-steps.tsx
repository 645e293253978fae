'use client';

import { useState, type FormEvent } from 'react';
import { callApi } from './api';
import { CodeInput } from './code-input';
import { EmailField } from './email-field';
import { ErrorAlert, StatusNote } from './error-alert';
import { fieldValue, useApiAction } from './use-api-action';

/** The two flows that begin by proving control of an e-mail address (sign-up and recovery). */
export interface EmailProofFlow {
  startPath: string;
  /** Member of the start response that carries the flow token. */
  tokenField: 'enrollment_token' | 'recovery_token';
  /** Header the token travels in on every later call of the flow. */
  tokenHeader: 'X-Enrollment-Token' | 'X-Recovery-Token';
  verifyPath: string;
  resendPath: string;
  codeLabel: string;
}

export interface VerifiedEmail {
  email: string;
  /** The flow-token header for the remaining calls. */
  headers: Record<string, string>;
}

interface Started {
  email: string;
  headers: Record<string, string>;
}

/**
 * Step 1, the address; step 2, the six-digit code (with resend). The start answer is the same
 * whether or not an account exists, so the wording never claims one does.
 */
export function VerifyEmailSteps({ flow, onVerified }: { flow: EmailProofFlow; onVerified: (verified: VerifiedEmail) => void }) {
  const [started, setStarted] = useState<Started | null>(null);
  const [resent, setResent] = useState<string | null>(null);
  const { pending, error, setError, fieldErrors, clearErrors, run } = useApiAction({ fields: ['email', 'code'] });

  async function start(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const email = fieldValue(event.currentTarget, 'email');
    const result = await run(() => callApi<Record<string, string>>(flow.startPath, { email }));
    if (result?.ok) setStarted({ email, headers: { [flow.tokenHeader]: result.body[flow.tokenField] ?? '' } });
  }

  async function verify(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!started) return;
    setResent(null);
    const result = await run(() => callApi(flow.verifyPath, { code: fieldValue(event.currentTarget, 'code') }, { headers: started.headers }));
    if (result?.ok) onVerified(started);
    else if (result?.status === 401) expired();
  }

  async function resend() {
    if (!started) return;
    setResent(null);
    const result = await run(() => callApi(flow.resendPath, {}, { headers: started.headers }));
    if (result?.ok) setResent(`A new code is on its way to ${started.email}. The previous code no longer works.`);
    else if (result?.status === 401) expired();
  }

  // The flow token lapsed (the code mail is only good for a while): begin again from the address.
  function expired() {
    setStarted(null);
    setError('This request has expired. Enter your e-mail address again to get a new code.');
  }

  function changeAddress() {
    setStarted(null);
    setResent(null);
    clearErrors();
  }

  if (!started) {
    return (
      <form className="stack" onSubmit={start} key="email">
        <EmailField error={fieldErrors.email} />
        <ErrorAlert message={error} />
        <div>
          <button type="submit" disabled={pending}>
            Continue
          </button>
        </div>
      </form>
    );
  }

  return (
    <form className="stack" onSubmit={verify} key="code">
      <p>
        We sent a message to <strong className="auth-email">{started.email}</strong>. Enter the six-digit code from it; it expires in 10 minutes.
      </p>
      <CodeInput label={flow.codeLabel} error={fieldErrors.code} />
      <ErrorAlert message={error} />
      <StatusNote message={resent} />
      <div className="auth-actions">
        <button type="submit" disabled={pending}>
          Verify
        </button>
        <button type="button" className="auth-secondary" onClick={resend} disabled={pending}>
          Send a new code
        </button>
        <button type="button" className="auth-link-button" onClick={changeAddress} disabled={pending}>
          Use a different address
        </button>
      </div>
    </form>
  );
}
