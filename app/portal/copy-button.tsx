'use client';

import { useState } from 'react';

/**
 * "Copy" beside a value a developer pastes elsewhere (issuer, client ID, a redirect URI, the
 * quickstart). Its name says what it copies ("Copy issuer"), and a short note confirms it.
 */
export function CopyButton({ value, label }: { value: string; label: string }) {
  const [note, setNote] = useState<string | null>(null);

  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setNote('Copied');
    } catch {
      // No clipboard access (permission refused, or not a secure context): the value is on the page to select.
      setNote('Copying was not allowed here: select the value and copy it with your keyboard.');
    }
  }

  return (
    <span className="portal-copy">
      <button type="button" className="auth-secondary" onClick={copy} aria-label={`Copy ${label}`}>
        Copy
      </button>
      <span role="status" className="hint">
        {note}
      </span>
    </span>
  );
}
