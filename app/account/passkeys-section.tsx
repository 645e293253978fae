'use client';

import { useRef, useState } from 'react';
import { useApi } from '../_components/api/use-api';
import { ErrorAlert, StatusNote } from '../_components/auth/error-alert';
import { usePasskeySupport } from '../_components/auth/passkey';
import { PasskeyUnavailable } from '../_components/auth/passkey-unavailable';
import { useApiAction } from '../_components/auth/use-api-action';
import { addPasskey } from './add-passkey';
import { PasskeyRow, type Passkey } from './passkey-row';

export function PasskeysSection({ passkeys, refresh }: { passkeys: Passkey[] | null; refresh: () => Promise<void> }) {
  const supported = usePasskeySupport();
  const { api, panel } = useApi();
  const { pending, error, run } = useApiAction();
  const [note, setNote] = useState<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);

  async function add() {
    setNote(null);
    const result = await run(() => addPasskey(api));
    if (!result?.ok) return;
    setNote(`Passkey “${result.body.name}” added.`);
    await refresh();
  }

  async function removed(name: string) {
    setNote(`Passkey “${name}” removed.`);
    await refresh();
    // The row with the focused button is gone; continue from the section heading.
    heading.current?.focus();
  }

  return (
    <section aria-labelledby="passkeys-heading">
      <h2 id="passkeys-heading" ref={heading} tabIndex={-1}>
        Passkeys
      </h2>
      <p className="hint">Sign in with your device&rsquo;s fingerprint, face or screen lock. Changes here ask you to confirm it&rsquo;s you.</p>
      {passkeys === null ? (
        <p role="alert" className="error">
          Your passkeys could not be loaded. Reload the page to try again.
        </p>
      ) : passkeys.length === 0 ? (
        <p>You have no passkeys yet.</p>
      ) : (
        <ul className="auth-list">
          {passkeys.map((passkey) => (
            <PasskeyRow key={passkey.id} passkey={passkey} api={api} onRenamed={refresh} onRemoved={() => removed(passkey.name)} />
          ))}
        </ul>
      )}
      {supported === false ? (
        <PasskeyUnavailable alternative="Add one from a browser or device that supports them." />
      ) : (
        <div className="auth-actions">
          <button type="button" onClick={add} disabled={pending || supported === null}>
            Add a passkey
          </button>
        </div>
      )}
      <ErrorAlert message={error} />
      <StatusNote message={note} />
      {panel}
    </section>
  );
}
