'use client';

import { useId, useState, type FormEvent } from 'react';
import { callApi } from '../_components/auth/api';
import { ErrorAlert } from '../_components/auth/error-alert';
import { NewPasswordField } from '../_components/auth/new-password-field';
import { runPasskeyCeremony, usePasskeySupport } from '../_components/auth/passkey';
import { PasskeyUnavailable } from '../_components/auth/passkey-unavailable';
import { passwordValue, useApiAction } from '../_components/auth/use-api-action';
import type { VerifiedEmail } from '../_components/auth/verify-email-steps';

/** The last sign-up step: an optional name, then a passkey or a password creates the account. */
export function CreateCredentials({ verified, onCreated }: { verified: VerifiedEmail; onCreated: () => void }) {
  const nameId = useId();
  const [name, setName] = useState('');
  const supported = usePasskeySupport();
  const passkey = useApiAction();
  const password = useApiAction();
  const busy = passkey.pending || password.pending;
  // The API rejects an empty name; leaving the field blank means "no name".
  const displayName = name.trim() ? { display_name: name.trim() } : {};

  async function createPasskey() {
    const result = await passkey.run(() =>
      runPasskeyCeremony({
        kind: 'register',
        optionsPath: '/api/auth/enrollment/passkey/options',
        completePath: '/api/auth/enrollment/passkey/complete',
        call: { headers: verified.headers },
        extraBody: displayName,
      }),
    );
    if (result?.ok) onCreated();
  }

  async function createWithPassword(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const body = { password: passwordValue(event.currentTarget, 'password'), ...displayName };
    const result = await password.run(() => callApi('/api/auth/enrollment/password/complete', body, { headers: verified.headers }));
    if (result?.ok) onCreated();
  }

  return (
    <div className="stack auth-steps">
      <p>
        <span className="badge badge-ready">Verified</span> <strong className="auth-email">{verified.email}</strong>
      </p>
      <div className="auth-field">
        <label htmlFor={nameId}>Your name (optional)</label>
        <input id={nameId} type="text" autoComplete="name" maxLength={100} value={name} onChange={(e) => setName(e.target.value)} autoFocus />
        <p className="hint">Shown on your account page. You can leave it empty.</p>
      </div>

      <section className="card auth-card">
        <h2>Use a passkey (recommended)</h2>
        {supported === false ? (
          <PasskeyUnavailable alternative="Choose a password below; you can add a passkey later from another device." />
        ) : (
          <>
            <p className="hint">Nothing to remember: your device unlocks it with your fingerprint, face or screen lock.</p>
            <div>
              <button type="button" onClick={createPasskey} disabled={busy || supported === null}>
                Create a passkey
              </button>
            </div>
          </>
        )}
        <ErrorAlert message={passkey.error} />
      </section>

      <section className="card auth-card">
        <h2>Or use a password</h2>
        <form className="stack" onSubmit={createWithPassword}>
          <NewPasswordField />
          <ErrorAlert message={password.error} />
          <div>
            <button type="submit" disabled={busy}>
              Create account with password
            </button>
          </div>
        </form>
      </section>
    </div>
  );
}
