'use client';

import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { Api } from '../_components/api/use-api';
import { ErrorAlert } from '../_components/auth/error-alert';
import { LocalTime } from '../_components/auth/local-time';
import { useFieldError } from '../_components/auth/field-error';
import { fieldValue, useApiAction } from '../_components/auth/use-api-action';
import { RemoveConfirmation } from '@/app/_components/confirmation';
import type { CallOutput } from '@/lib/contract/client';
import type { Contracts } from '@/lib/http/contracts';

export type Passkey = CallOutput<Contracts['listOwnPasskeys']>['passkeys'][number];

type Mode = 'view' | 'renaming' | 'confirming';

/** One passkey with inline rename and (confirmed) removal; both go through the section's `api` and its step-up panel. */
export function PasskeyRow({
  passkey,
  api,
  onRenamed,
  onRemoved,
}: {
  passkey: Passkey;
  api: Api;
  onRenamed: () => Promise<void>;
  onRemoved: () => Promise<void>;
}) {
  const nameId = useId();
  const { pending, error, fieldErrors, clearErrors, run } = useApiAction({ fields: ['name'] });
  const nameField = useFieldError<HTMLInputElement>(nameId, fieldErrors.name);
  const [mode, setMode] = useState<Mode>('view');
  const renameButton = useRef<HTMLButtonElement>(null);
  const removeButton = useRef<HTMLButtonElement>(null);
  // Which button takes focus back once the row shows its buttons again (they are not rendered meanwhile).
  const returnFocus = useRef<'rename' | 'remove' | null>(null);
  const params = { passkey_id: passkey.id };

  // Leaving the inline form or question puts focus back where the person started, once that button exists again.
  useEffect(() => {
    if (mode !== 'view' || !returnFocus.current) return;
    (returnFocus.current === 'rename' ? renameButton : removeButton).current?.focus();
    returnFocus.current = null;
  }, [mode]);

  function backToView(focus: 'rename' | 'remove') {
    returnFocus.current = focus;
    setMode('view');
  }

  function stopRenaming() {
    backToView('rename');
    clearErrors();
  }

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const name = fieldValue(event.currentTarget, 'name');
    const result = await run(() => api.renamePasskey({ params, body: { name } }));
    if (!result?.ok) return;
    await onRenamed();
    stopRenaming();
  }

  async function remove() {
    const result = await run(() => api.removePasskey({ params }));
    if (result?.ok) await onRemoved();
    else backToView('remove');
  }

  return (
    <li className="card auth-item">
      <div className="auth-item-main">
        <p className="auth-item-title">
          <strong>{passkey.name}</strong> <span className="badge">{passkey.backed_up ? 'Synced' : 'This device only'}</span>
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
      {mode === 'renaming' ? (
        <form className="auth-rename" onSubmit={save}>
          <label htmlFor={nameId}>Passkey name</label>
          <div className="auth-actions">
            <input ref={nameField.ref} id={nameId} name="name" type="text" defaultValue={passkey.name} maxLength={64} required autoFocus {...nameField.props} />
            <button type="submit" disabled={pending}>
              Save
            </button>
            <button type="button" className="auth-secondary" onClick={stopRenaming} disabled={pending}>
              Cancel
            </button>
          </div>
          {nameField.message}
        </form>
      ) : mode === 'confirming' ? (
        <RemoveConfirmation
          question={`Remove “${passkey.name}”?`}
          consequence="You will no longer be able to sign in with it here. It stays on its device or password manager until you delete it there too."
          confirmLabel="Remove passkey"
          pending={pending}
          onConfirm={remove}
          onCancel={() => backToView('remove')}
        />
      ) : (
        <div className="auth-actions">
          <button ref={renameButton} type="button" className="auth-secondary" onClick={() => setMode('renaming')} disabled={pending}>
            Rename
          </button>
          <button ref={removeButton} type="button" className="auth-secondary auth-danger" onClick={() => setMode('confirming')} disabled={pending}>
            Remove
          </button>
        </div>
      )}
      <ErrorAlert message={error} />
    </li>
  );
}
