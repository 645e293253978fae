'use client';

import { useCallback, useState } from 'react';
import type { CredentialSet } from '../_components/auth/credential-choice';
import { StatusNote } from '../_components/auth/error-alert';
import { VerifyEmailSteps, type EmailProofFlow, type VerifiedEmail } from '../_components/auth/verify-email-steps';
import { AccountReady } from './account-ready';
import { CreateCredentials } from './create-credentials';
import { InvitedAddress } from './invited-address';

const ENROLLMENT: EmailProofFlow = { kind: 'enrollment', codeLabel: 'Verification code' };

/**
 * Address, code, credential, then signed in and on to `returnTo`. Begun from an invitation link
 * (`invitationToken`), the link confirms the invited address instead of a code.
 */
export function SignUpFlow({ returnTo, invitationToken }: { returnTo: string; invitationToken: string | null }) {
  const [verified, setVerified] = useState<VerifiedEmail | null>(null);
  const [created, setCreated] = useState<CredentialSet | null>(null);
  const [fallback, setFallback] = useState<string | null>(null);
  const onFallback = useCallback((message: string) => setFallback(message), []);

  if (verified && created) return <AccountReady email={verified.email} credential={created} returnTo={returnTo} />;
  // From an invitation the credential step's own "Verified <address>" shows the address the link confirmed.
  if (verified) return <CreateCredentials verified={verified} onCreated={setCreated} />;
  if (invitationToken && !fallback) return <InvitedAddress token={invitationToken} returnTo={returnTo} onVerified={setVerified} onFallback={onFallback} />;
  return (
    <div className="card auth-card">
      <StatusNote message={fallback} />
      <VerifyEmailSteps flow={ENROLLMENT} onVerified={setVerified} />
    </div>
  );
}
