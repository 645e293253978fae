'use client';

import { useState } from 'react';

/**
 * "Copy" next to a value people paste elsewhere (a DNS record, a redirect URI). The confirmation is
 * announced through a polite status region that exists before it changes.
 */
export function CopyButton({ value, label }: { value: string; label: string }) {
  const [note, setNote] = useState('');

  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setNote(`${label} copied.`);
    } catch {
      setNote('Copying is not allowed here: select the text and copy it.');
    }
  }

  return (
    <>
      <button type="button" className="auth-secondary console-copy" aria-label={`Copy ${label}`} onClick={() => void copy()}>
        Copy
      </button>
      <span role="status" className="console-visually-hidden">
        {note}
      </span>
    </>
  );
}

/** A value to copy: shown in full (it wraps on a phone), with its Copy button. */
export function CopyableValue({ value, label }: { value: string; label: string }) {
  return (
    <span className="console-copyable">
      <code>{value}</code>
      <CopyButton value={value} label={label} />
    </span>
  );
}
