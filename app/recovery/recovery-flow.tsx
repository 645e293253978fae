'use client';

import Link from 'next/link';
import { useState } from 'react';
import { SuccessPanel } from '../_components/auth/success-panel';
import { VerifyEmailSteps, type EmailProofFlow, type VerifiedEmail } from '../_components/auth/verify-email-steps';
import { ReplaceCredentials } from './replace-credentials';

const RECOVERY: EmailProofFlow = { kind: 'recovery', codeLabel: 'Recovery code' };

/** Address, code, new credential, done. Recovery signs out everywhere and issues no session. */
export function RecoveryFlow() {
  const [verified, setVerified] = useState<VerifiedEmail | null>(null);
  const [recovered, setRecovered] = useState(false);

  if (recovered) {
    return (
      <SuccessPanel title="Your account is recovered">
        <p>For your safety every session was signed out, and we sent a notice to your address. Sign in with your new credential.</p>
        <p>
          <Link className="auth-button-link" href="/sign-in">
            Sign in
          </Link>
        </p>
      </SuccessPanel>
    );
  }
  if (verified) return <ReplaceCredentials verified={verified} onRecovered={() => setRecovered(true)} />;
  return (
    <div className="card auth-card">
      <VerifyEmailSteps flow={RECOVERY} onVerified={setVerified} />
    </div>
  );
}
