'use client';

import type { FormEvent, ReactNode } from 'react';
import { AccountUsername } from './account-username';
import { CONTRACTS } from '@/lib/http/contracts';
import { callContract } from '../api/call';
import { ErrorAlert } from './error-alert';
import { NewPasswordField } from './new-password-field';
import { runPasskeyCeremony, usePasskeySupport } from './passkey';
import { PasskeyUnavailable } from './passkey-unavailable';
import { passwordValue, useApiAction } from './use-api-action';
import type { VerifiedEmail } from './verify-email-steps';

/** How the account got its credential; a password is handed on so the page can sign in with it. */
export type CredentialSet = { method: 'passkey' } | { method: 'password'; password: string };

export interface CredentialChoiceTexts {
  passkeyTitle: string;
  passkeyHint: string;
  /** What to do instead when this browser cannot create passkeys. */
  passkeyUnavailable: string;
  passkeyButton: string;
  passwordTitle: string;
  passwordButton: string;
}

/** Each flow's operations for its last step. */
const FLOW_OPERATIONS = {
  enrollment: {
    passkeyOptions: CONTRACTS.enrollmentPasskeyOptions,
    passkey: CONTRACTS.completePasskeyEnrollment,
    password: CONTRACTS.completePasswordEnrollment,
  },
  recovery: { passkeyOptions: CONTRACTS.recoveryPasskeyOptions, passkey: CONTRACTS.completePasskeyRecovery, password: CONTRACTS.completePasswordRecovery },
} as const;

/**
 * The last step of sign-up and of recovery, after the address is verified: a passkey (the flow's
 * passkey ceremony) or a password (the flow's password completion).
 * `children` come between the verified address and the two choices (sign-up's name field).
 */
export function CredentialChoice(props: {
  verified: VerifiedEmail;
  flow: 'enrollment' | 'recovery';
  texts: CredentialChoiceTexts;
  extraBody?: Record<string, string>;
  focusPassword?: boolean;
  onDone: (credential: CredentialSet) => void;
  children?: ReactNode;
}) {
  const { verified, flow, texts, extraBody = {}, onDone } = props;
  const supported = usePasskeySupport();
  const passkey = useApiAction();
  const password = useApiAction({ fields: ['password'] });
  const busy = passkey.pending || password.pending;

  async function createPasskey() {
    const result = await passkey.run(() =>
      runPasskeyCeremony({
        kind: 'register',
        options: FLOW_OPERATIONS[flow].passkeyOptions,
        complete: FLOW_OPERATIONS[flow].passkey,
        call: { headers: verified.headers },
        extraBody,
      }),
    );
    if (result?.ok) onDone({ method: 'passkey' });
  }

  async function setPassword(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const body = { password: passwordValue(event.currentTarget, 'password'), ...extraBody };
    // The flow's own fields (sign-up's name) travel beside the password, as its contract declares them.
    const result = await password.run(() =>
      callContract(FLOW_OPERATIONS[flow].password, { body } as { body: { password: string } }, { headers: verified.headers }),
    );
    if (result?.ok) onDone({ method: 'password', password: body.password });
  }

  return (
    <div className="stack auth-steps">
      <p>
        <span className="badge badge-ready">Verified</span> <strong className="auth-email">{verified.email}</strong>
      </p>
      {props.children}

      <section className="card auth-card">
        <h2>{texts.passkeyTitle}</h2>
        {supported === false ? (
          <PasskeyUnavailable alternative={texts.passkeyUnavailable} />
        ) : (
          <>
            <p className="hint">{texts.passkeyHint}</p>
            <div>
              <button type="button" onClick={createPasskey} disabled={busy || supported === null}>
                {texts.passkeyButton}
              </button>
            </div>
          </>
        )}
        <ErrorAlert message={passkey.error} />
      </section>

      <section className="card auth-card">
        <h2>{texts.passwordTitle}</h2>
        <form className="stack" onSubmit={setPassword}>
          <AccountUsername email={verified.email} />
          <NewPasswordField autoFocus={props.focusPassword} error={password.fieldErrors.password} />
          <ErrorAlert message={password.error} />
          <div>
            <button type="submit" disabled={busy}>
              {texts.passwordButton}
            </button>
          </div>
        </form>
      </section>
    </div>
  );
}
