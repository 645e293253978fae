'use client';

import { useState } from 'react';
import { SuccessPanel } from '../_components/auth/success-panel';
import { VerifyEmailSteps, type EmailProofFlow, type VerifiedEmail } from '../_components/auth/verify-email-steps';
import { CreateCredentials } from './create-credentials';

const ENROLLMENT: EmailProofFlow = {
  startPath: '/api/auth/enrollment/start',
  tokenField: 'enrollment_token',
  tokenHeader: 'X-Enrollment-Token',
  verifyPath: '/api/auth/enrollment/verify-email',
  resendPath: '/api/auth/enrollment/resend-email',
  codeLabel: 'Verification code',
};

/** Address, code, credential, done. Enrollment issues no session, so the end is a link to sign in. */
export function SignUpFlow() {
  const [verified, setVerified] = useState<VerifiedEmail | null>(null);
  const [created, setCreated] = useState(false);

  if (created) {
    return (
      <SuccessPanel title="Your account is ready">
        <p>Sign in now with the passkey or password you just set up.</p>
      </SuccessPanel>
    );
  }
  if (verified) return <CreateCredentials verified={verified} onCreated={() => setCreated(true)} />;
  return (
    <div className="card auth-card">
      <VerifyEmailSteps flow={ENROLLMENT} onVerified={setVerified} />
    </div>
  );
}
