'use client';

import Link from 'next/link';
import { useEffect, useRef, useState } from 'react';
import { CONTRACTS } from '@/lib/http/contracts';
import { callContract } from '../_components/api/call';
import { problemMessage } from '../_components/auth/api';
import type { VerifiedEmail } from '../_components/auth/verify-email-steps';
import { withReturnTo } from '../sign-in/return-to';

type State = { step: 'checking' } | { step: 'has-account' } | { step: 'failed'; message: string };

const INVALID_LINK = 'This invitation link is not valid or has expired, so it cannot confirm your address. Sign up with a code instead.';

/**
 * Sign-up from an invitation link: the link's token starts an enrollment for the invited address,
 * already verified (POST /api/auth/enrollment/invitation), so the person goes straight on to choose
 * a passkey or a password. An address that has an account is sent to sign in; a link that cannot be
 * used (or an API that cannot answer) falls back to the ordinary sign-up with a code (`onFallback`).
 */
export function InvitedAddress({
  token,
  returnTo,
  onVerified,
  onFallback,
}: {
  token: string;
  returnTo: string;
  onVerified: (verified: VerifiedEmail) => void;
  onFallback: (message: string) => void;
}) {
  const [state, setState] = useState<State>({ step: 'checking' });
  const started = useRef(false);

  useEffect(() => {
    // Once, even when React runs effects twice (development): each call starts an enrollment.
    if (started.current) return;
    started.current = true;
    void callContract(CONTRACTS.startEnrollmentFromInvitation, { body: { token } }).then((result) => {
      if (result.ok) onVerified({ email: result.body.email, headers: { 'X-Enrollment-Token': result.body.enrollment_token } });
      else if (result.status === 409) setState({ step: 'has-account' });
      else onFallback(result.status === 404 ? INVALID_LINK : problemMessage(result.body));
    });
  }, [token, onVerified, onFallback]);

  if (state.step === 'has-account') {
    return (
      <div className="card auth-card stack">
        <p role="alert" className="error auth-alert">
          An account already uses the invited address.
        </p>
        <p>Sign in with it to accept the invitation.</p>
        <div>
          <Link className="auth-button-link" href={withReturnTo('/sign-in', returnTo)}>
            Sign in to accept
          </Link>
        </div>
      </div>
    );
  }
  return (
    <p className="lead" role="status">
      {state.step === 'checking' ? 'Checking the invitation…' : state.message}
    </p>
  );
}
