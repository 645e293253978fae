'use client';

import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { callApi, type ApiResult } from '../_components/auth/api';
import { ErrorAlert } from '../_components/auth/error-alert';
import { LocalTime } from '../_components/auth/local-time';
import { fieldValue, useApiAction } from '../_components/auth/use-api-action';
import { useAccount } from './account-context';
import type { PasskeyItem } from './types';

type Guarded = <T>(action: () => Promise<ApiResult<T>>) => Promise<ApiResult<T> | null>;

/** One passkey with inline rename and removal; both go through the section's step-up guard. */
export function PasskeyRow({
  passkey,
  guarded,
  onRenamed,
  onRemoved,
}: {
  passkey: PasskeyItem;
  guarded: Guarded;
  onRenamed: () => Promise<void>;
  onRemoved: () => Promise<void>;
}) {
  const nameId = useId();
  const { csrf } = useAccount();
  const { pending, error, setError, run } = useApiAction();
  const [renaming, setRenaming] = useState(false);
  const renameButton = useRef<HTMLButtonElement>(null);
  const returnFocus = useRef(false);
  const path = `/api/auth/passkeys/${encodeURIComponent(passkey.id)}`;

  // Leaving the inline form puts focus back where the person started, once that button exists again.
  useEffect(() => {
    if (renaming || !returnFocus.current) return;
    returnFocus.current = false;
    renameButton.current?.focus();
  }, [renaming]);

  function stopRenaming() {
    returnFocus.current = true;
    setRenaming(false);
    setError(null);
  }

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const name = fieldValue(event.currentTarget, 'name');
    const result = await run(() => guarded(() => callApi<PasskeyItem>(path, { name }, { csrf, method: 'PATCH' })));
    if (!result?.ok) return;
    await onRenamed();
    stopRenaming();
  }

  async function remove() {
    const result = await run(() => guarded(() => callApi(path, undefined, { csrf, method: 'DELETE' })));
    if (result?.ok) await onRemoved();
  }

  return (
    <li className="card auth-item">
      <div className="auth-item-main">
        <p className="auth-item-title">
          <strong>{passkey.name}</strong>{' '}
          <span className="badge">{passkey.backed_up ? 'Synced' : 'This device only'}</span>
        </p>
        <p className="hint">
          Added <LocalTime iso={passkey.created_at} />
          <br />
          {passkey.last_used_at ? (
            <>
              Last used <LocalTime iso={passkey.last_used_at} />
            </>
          ) : (
            'Not used yet'
          )}
        </p>
      </div>
      {renaming ? (
        <form className="auth-rename" onSubmit={save}>
          <label htmlFor={nameId}>Passkey name</label>
          <div className="auth-actions">
            <input id={nameId} name="name" type="text" defaultValue={passkey.name} maxLength={64} required autoFocus />
            <button type="submit" disabled={pending}>
              Save
            </button>
            <button type="button" className="auth-secondary" onClick={stopRenaming} disabled={pending}>
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <div className="auth-actions">
          <button ref={renameButton} type="button" className="auth-secondary" onClick={() => setRenaming(true)} disabled={pending}>
            Rename
          </button>
          <button type="button" className="auth-secondary auth-danger" onClick={remove} disabled={pending}>
            Remove
          </button>
        </div>
      )}
      <ErrorAlert message={error} />
    </li>
  );
}
