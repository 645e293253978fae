'use client';

import { browserSupportsWebAuthnAutofill, WebAuthnAbortService } from '@simplewebauthn/browser';
import { useCallback, useEffect } from 'react';
import { problemMessage } from '../_components/auth/api';
import { ErrorAlert } from '../_components/auth/error-alert';
import { PASSKEY_SIGN_IN as SIGN_IN, runPasskeyCeremony, usePasskeySupport } from '../_components/auth/passkey';
import { PasskeyUnavailable } from '../_components/auth/passkey-unavailable';
import { useApiAction } from '../_components/auth/use-api-action';

/**
 * Passkey sign-in two ways: the explicit button, and conditional UI (the browser offers passkeys in
 * the autofill of the password form's e-mail field, autocomplete "username webauthn"). The
 * conditional request waits in the background; the button, with its own fresh challenge, replaces it.
 */
export function PasskeySignIn({ returnTo }: { returnTo: string }) {
  const supported = usePasskeySupport();
  const { pending, error, setError, run } = useApiAction();

  const startAutofill = useCallback(async () => {
    if (!(await browserSupportsWebAuthnAutofill())) return;
    const result = await runPasskeyCeremony({ kind: 'autofill', ...SIGN_IN });
    if (result.ok) window.location.assign(returnTo);
    // Only the API's answers are worth reporting here. Browser-side endings (superseded by the
    // button, a timeout of the waiting request) happen without the person asking for anything.
    else if (result.status !== 0) setError(problemMessage(result.body));
  }, [returnTo, setError]);

  useEffect(() => {
    if (!supported) return;
    // The password form's e-mail field is mounted in the same commit, so autofill finds its input.
    void startAutofill();
    // Leaving the page must not leave a passkey request waiting in the browser.
    return () => WebAuthnAbortService.cancelCeremony();
  }, [supported, startAutofill]);

  async function signInWithButton() {
    const result = await run(() => runPasskeyCeremony({ kind: 'authenticate', ...SIGN_IN }), { navigatesOnSuccess: true });
    // The button's request replaced the autofill one, which is not re-armed: every request costs a
    // challenge from the per-client passkey_options budget, and a reload offers autofill again.
    if (result?.ok) window.location.assign(returnTo);
  }

  return (
    <section className="card auth-card">
      <h2>With a passkey</h2>
      {supported === false ? (
        <PasskeyUnavailable alternative="You can sign in with your password or an e-mail code instead." />
      ) : (
        <>
          <p className="hint">Use the fingerprint, face or screen lock of this device, or a security key.</p>
          <div>
            <button type="button" onClick={signInWithButton} disabled={pending || supported === null}>
              Sign in with a passkey
            </button>
          </div>
        </>
      )}
      <ErrorAlert message={error} />
    </section>
  );
}
