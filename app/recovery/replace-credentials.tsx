'use client';

import type { FormEvent } from 'react';
import { callApi } from '../_components/auth/api';
import { ErrorAlert } from '../_components/auth/error-alert';
import { NewPasswordField } from '../_components/auth/new-password-field';
import { runPasskeyCeremony, usePasskeySupport } from '../_components/auth/passkey';
import { PasskeyUnavailable } from '../_components/auth/passkey-unavailable';
import { passwordValue, useApiAction } from '../_components/auth/use-api-action';
import type { VerifiedEmail } from '../_components/auth/verify-email-steps';

/** The last recovery step: a replacement passkey, or a new password for people without a passkey device. */
export function ReplaceCredentials({ verified, onRecovered }: { verified: VerifiedEmail; onRecovered: () => void }) {
  const supported = usePasskeySupport();
  const passkey = useApiAction();
  const password = useApiAction();
  const busy = passkey.pending || password.pending;

  async function createPasskey() {
    const result = await passkey.run(() =>
      runPasskeyCeremony({
        kind: 'register',
        optionsPath: '/api/auth/recovery/passkey/options',
        completePath: '/api/auth/recovery/passkey/complete',
        call: { headers: verified.headers },
      }),
    );
    if (result?.ok) onRecovered();
  }

  async function setPassword(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const body = { password: passwordValue(event.currentTarget, 'password') };
    const result = await password.run(() => callApi('/api/auth/recovery/password/complete', body, { headers: verified.headers }));
    if (result?.ok) onRecovered();
  }

  return (
    <div className="stack auth-steps">
      <p>
        <span className="badge badge-ready">Verified</span> <strong className="auth-email">{verified.email}</strong>
      </p>

      <section className="card auth-card">
        <h2>A new passkey</h2>
        {supported === false ? (
          <PasskeyUnavailable alternative="Set a new password below instead." />
        ) : (
          <>
            <p className="hint">Creates a passkey on this device. Your other passkeys keep working; remove lost ones from your account page.</p>
            <div>
              <button type="button" onClick={createPasskey} disabled={busy || supported === null}>
                Create a new passkey
              </button>
            </div>
          </>
        )}
        <ErrorAlert message={passkey.error} />
      </section>

      <section className="card auth-card">
        <h2>Or a new password</h2>
        <form className="stack" onSubmit={setPassword}>
          <NewPasswordField autoFocus />
          <ErrorAlert message={password.error} />
          <div>
            <button type="submit" disabled={busy}>
              Set new password
            </button>
          </div>
        </form>
      </section>
    </div>
  );
}
