'use client';

import { useId, useState } from 'react';
import { CredentialChoice, type CredentialSet } from '../_components/auth/credential-choice';
import type { VerifiedEmail } from '../_components/auth/verify-email-steps';

/** The last sign-up step: an optional name, then a passkey or a password creates the account. */
export function CreateCredentials({ verified, onCreated }: { verified: VerifiedEmail; onCreated: (credential: CredentialSet) => void }) {
  const nameId = useId();
  const [name, setName] = useState('');
  // The API rejects an empty name; leaving the field blank means "no name".
  const displayName: Record<string, string> = name.trim() ? { display_name: name.trim() } : {};

  return (
    <CredentialChoice
      verified={verified}
      flow="enrollment"
      extraBody={displayName}
      onDone={onCreated}
      texts={{
        passkeyTitle: 'Use a passkey (recommended)',
        passkeyHint: 'Nothing to remember: your device unlocks it with your fingerprint, face or screen lock.',
        passkeyUnavailable: 'Choose a password below; you can add a passkey later from another device.',
        passkeyButton: 'Create a passkey',
        passwordTitle: 'Or use a password',
        passwordButton: 'Create account with password',
      }}
    >
      <div className="auth-field">
        <label htmlFor={nameId}>Your name (optional)</label>
        <input id={nameId} type="text" autoComplete="name" maxLength={100} value={name} onChange={(e) => setName(e.target.value)} autoFocus />
        <p className="hint">Shown on your account page. You can leave it empty.</p>
      </div>
    </CredentialChoice>
  );
}
