'use client';

import { CredentialChoice } from '../_components/auth/credential-choice';
import type { VerifiedEmail } from '../_components/auth/verify-email-steps';

/** The last recovery step: a replacement passkey, or a new password for people without a passkey device. */
export function ReplaceCredentials({ verified, onRecovered }: { verified: VerifiedEmail; onRecovered: () => void }) {
  return (
    <CredentialChoice
      verified={verified}
      flow="recovery"
      focusPassword
      onDone={onRecovered}
      texts={{
        passkeyTitle: 'A new passkey',
        passkeyHint: 'Creates a passkey on this device. Your other passkeys keep working; remove lost ones from your account page.',
        passkeyUnavailable: 'Set a new password below instead.',
        passkeyButton: 'Create a new passkey',
        passwordTitle: 'Or a new password',
        passwordButton: 'Set new password',
      }}
    />
  );
}
