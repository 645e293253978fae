'use client';

import { useEffect, useId, useRef, type KeyboardEvent } from 'react';

/**
 * "Remove X?" asked in place, instead of window.confirm (which cannot be styled, reads badly on a
 * phone and is suppressed by some browsers). Focus moves to the question, so a screen reader reads
 * it and the next Tab reaches the destructive button; Escape or "Keep it" backs out.
 */
export function RemoveConfirmation({
  question,
  consequence,
  confirmLabel,
  pending,
  onConfirm,
  onCancel,
}: {
  question: string;
  consequence: string;
  confirmLabel: string;
  pending: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const questionId = useId();
  const group = useRef<HTMLDivElement>(null);
  useEffect(() => group.current?.focus(), []);

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (event.key === 'Escape' && !pending) {
      event.preventDefault();
      onCancel();
    }
  }

  return (
    <div ref={group} role="group" aria-labelledby={questionId} tabIndex={-1} className="auth-confirm" onKeyDown={onKeyDown}>
      <p>
        <strong id={questionId}>{question}</strong> {consequence}
      </p>
      <div className="auth-actions">
        <button type="button" className="auth-danger-solid" onClick={onConfirm} disabled={pending}>
          {confirmLabel}
        </button>
        <button type="button" className="auth-secondary" onClick={onCancel} disabled={pending}>
          Keep it
        </button>
      </div>
    </div>
  );
}
