'use client';

import { useState } from 'react';
import { EmailCodeSignIn, type CodeRequest } from './email-code-sign-in';
import { PasskeySignIn } from './passkey-sign-in';
import type { LockoutPolicy } from './password-pause-note';
import { PasswordSignIn } from './password-sign-in';

/** The three ways in, side by side; the password card can hand its address to the e-mail code card. */
export function SignInMethods({ returnTo, lockout }: { returnTo: string; lockout: LockoutPolicy }) {
  const [codeRequest, setCodeRequest] = useState<CodeRequest | null>(null);
  return (
    <div className="auth-methods">
      <PasskeySignIn returnTo={returnTo} />
      <PasswordSignIn returnTo={returnTo} lockout={lockout} onCodeInstead={(email) => setCodeRequest({ email, id: (codeRequest?.id ?? 0) + 1 })} />
      <EmailCodeSignIn returnTo={returnTo} request={codeRequest} />
    </div>
  );
}
