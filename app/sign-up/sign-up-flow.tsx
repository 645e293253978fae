'use client';

import { useState } from 'react';
import type { CredentialSet } from '../_components/auth/credential-choice';
import { VerifyEmailSteps, type EmailProofFlow, type VerifiedEmail } from '../_components/auth/verify-email-steps';
import { AccountReady } from './account-ready';
import { CreateCredentials } from './create-credentials';

const ENROLLMENT: EmailProofFlow = {
  startPath: '/api/auth/enrollment/start',
  tokenField: 'enrollment_token',
  tokenHeader: 'X-Enrollment-Token',
  verifyPath: '/api/auth/enrollment/verify-email',
  resendPath: '/api/auth/enrollment/resend-email',
  codeLabel: 'Verification code',
};

/** Address, code, credential, then signed in and on to `returnTo`. */
export function SignUpFlow({ returnTo }: { returnTo: string }) {
  const [verified, setVerified] = useState<VerifiedEmail | null>(null);
  const [created, setCreated] = useState<CredentialSet | null>(null);

  if (verified && created) return <AccountReady email={verified.email} credential={created} returnTo={returnTo} />;
  if (verified) return <CreateCredentials verified={verified} onCreated={setCreated} />;
  return (
    <div className="card auth-card">
      <VerifyEmailSteps flow={ENROLLMENT} onVerified={setVerified} />
    </div>
  );
}
