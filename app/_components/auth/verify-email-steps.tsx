'use client';

import { useState, type FormEvent } from 'react';
import { CONTRACTS } from '@/lib/http/contracts';
import { callContract } from '../api/call';
import { CodeInput } from './code-input';
import { EmailField } from './email-field';
import { ErrorAlert, StatusNote } from './error-alert';
import { fieldValue, useApiAction } from './use-api-action';

/**
 * The two flows that begin by proving control of an e-mail address (sign-up and recovery): their
 * operations, and the header their token travels in on every later call of the flow.
 */
const FLOWS = {
  enrollment: {
    start: (email: string) => callContract(CONTRACTS.startEnrollment, { body: { email } }),
    token: (started: { enrollment_token: string }) => ({ 'X-Enrollment-Token': started.enrollment_token }),
    verify: CONTRACTS.verifyEnrollmentEmail,
    resend: CONTRACTS.resendEnrollmentEmail,
  },
  recovery: {
    start: (email: string) => callContract(CONTRACTS.startRecovery, { body: { email } }),
    token: (started: { recovery_token: string }) => ({ 'X-Recovery-Token': started.recovery_token }),
    verify: CONTRACTS.verifyRecovery,
    resend: CONTRACTS.resendRecoveryCode,
  },
} as const;

export interface EmailProofFlow {
  kind: keyof typeof FLOWS;
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
    if (flow.kind === 'enrollment') {
      const result = await run(() => FLOWS.enrollment.start(email));
      if (result?.ok) setStarted({ email, headers: FLOWS.enrollment.token(result.body) });
    } else {
      const result = await run(() => FLOWS.recovery.start(email));
      if (result?.ok) setStarted({ email, headers: FLOWS.recovery.token(result.body) });
    }
  }

  async function verify(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!started) return;
    setResent(null);
    const result = await run(() =>
      callContract(FLOWS[flow.kind].verify, { body: { code: fieldValue(event.currentTarget, 'code') } }, { headers: started.headers }),
    );
    if (result?.ok) onVerified(started);
    else if (result?.status === 401) expired();
  }

  async function resend() {
    if (!started) return;
    setResent(null);
    const result = await run(() => callContract(FLOWS[flow.kind].resend, {}, { headers: started.headers }));
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
