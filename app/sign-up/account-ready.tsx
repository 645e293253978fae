'use client';

import Link from 'next/link';
import { useEffect, useRef } from 'react';
import { CONTRACTS } from '@/lib/http/contracts';
import { callContract } from '../_components/api/call';
import type { CredentialSet } from '../_components/auth/credential-choice';
import { ErrorAlert, StatusNote } from '../_components/auth/error-alert';
import { PASSKEY_SIGN_IN, runPasskeyCeremony } from '../_components/auth/passkey';
import { SuccessPanel } from '../_components/auth/success-panel';
import { useApiAction } from '../_components/auth/use-api-action';
import { withReturnTo } from '../sign-in/return-to';

/**
 * Enrollment never issues a session (the spec), so the page finishes the job with the documented
 * sign-in API. With a password it signs in at once, with the password just set. A passkey needs a
 * gesture of the person's (browsers ask for one before a WebAuthn request), so its sign-in is the
 * panel's one primary button.
 */
export function AccountReady({ email, credential, returnTo }: { email: string; credential: CredentialSet; returnTo: string }) {
  const { pending, error, run } = useApiAction();
  const started = useRef(false);
  const password = credential.method === 'password' ? credential.password : null;

  useEffect(() => {
    // Once per account, even when React runs effects twice (development) or the panel re-renders.
    if (password === null || started.current) return;
    started.current = true;
    void run(() => callContract(CONTRACTS.signInWithPassword, { body: { email, password } }), { navigatesOnSuccess: true }).then((result) => {
      if (result?.ok) window.location.assign(returnTo);
    });
  }, [email, password, returnTo, run]);

  async function signInWithPasskey() {
    const result = await run(() => runPasskeyCeremony({ kind: 'authenticate', ...PASSKEY_SIGN_IN }), { navigatesOnSuccess: true });
    if (result?.ok) window.location.assign(returnTo);
  }

  const otherWays = <Link href={withReturnTo('/sign-in', returnTo)}>{password === null ? 'Sign in another way' : 'Go to sign-in'}</Link>;

  return (
    <SuccessPanel title="Your account is ready">
      {password === null ? (
        <>
          <p>Your passkey is saved on this device. Use it now to sign in.</p>
          <div className="auth-actions">
            <button type="button" onClick={signInWithPasskey} disabled={pending}>
              Sign in with your new passkey
            </button>
            {otherWays}
          </div>
          <ErrorAlert message={error} />
        </>
      ) : error ? (
        <>
          <ErrorAlert message={`We could not sign you in automatically. ${error}`} />
          <p>{otherWays}</p>
        </>
      ) : (
        <StatusNote message="Signing you in…" />
      )}
    </SuccessPanel>
  );
}
