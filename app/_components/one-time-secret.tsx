'use client';

import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { StatusNote } from './auth/error-alert';

/**
 * A credential the API answers once (client secret, API key, webhook signing secret): shown in a
 * read-only field with a Copy button, and gone for good once dismissed. Focus moves to the panel so
 * a screen reader announces it before anything else happens.
 */
export function OneTimeSecret({
  title,
  label,
  value,
  details,
  onDone,
}: {
  title: string;
  label: string;
  value: string;
  details?: ReactNode;
  onDone: () => void;
}) {
  const headingId = useId();
  const fieldId = useId();
  const panel = useRef<HTMLDivElement>(null);
  const field = useRef<HTMLInputElement>(null);
  const [note, setNote] = useState<string | null>(null);
  useEffect(() => panel.current?.focus(), []);

  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setNote(`${label} copied to the clipboard.`);
    } catch {
      // No clipboard access (permission refused, or not a secure context): select it for a manual copy.
      field.current?.select();
      setNote('Copying was not allowed here: the value is selected, copy it with your keyboard.');
    }
  }

  return (
    <div ref={panel} className="card one-time-secret" role="group" aria-labelledby={headingId} tabIndex={-1}>
      <p>
        <strong id={headingId}>{title}</strong> Copy it now and keep it somewhere safe: it is shown only this once, and nobody (us included) can show it again.
      </p>
      {details}
      <div className="auth-field">
        <label htmlFor={fieldId}>{label}</label>
        <div className="one-time-secret-row">
          <input
            ref={field}
            id={fieldId}
            className="one-time-secret-value"
            readOnly
            value={value}
            spellCheck={false}
            autoComplete="off"
            onFocus={(event) => event.currentTarget.select()}
          />
          <button type="button" onClick={copy}>
            Copy
          </button>
        </div>
      </div>
      <StatusNote message={note} />
      <div>
        <button type="button" className="auth-secondary" onClick={onDone}>
          I have saved it
        </button>
      </div>
    </div>
  );
}
