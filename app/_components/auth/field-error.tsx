'use client';

import { useEffect, useRef } from 'react';

/**
 * A field's own error message: shown under the field, first in its accessible description
 * (aria-describedby) and marking it invalid. The first invalid field on the page takes focus, so a
 * screen reader reads its label, "invalid" and the message together, and typing can start at once.
 */
export function useFieldError<E extends HTMLElement>(id: string, error: string | null | undefined, hintId?: string) {
  const ref = useRef<E>(null);
  useEffect(() => {
    if (error && ref.current && document.querySelector('[aria-invalid="true"]') === ref.current) ref.current.focus();
  }, [error]);
  const errorId = `${id}-error`;
  const describedBy = [error ? errorId : null, hintId].filter(Boolean).join(' ');
  return {
    ref,
    props: { 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy || undefined },
    message: error ? (
      <p id={errorId} className="error auth-field-error">
        {error}
      </p>
    ) : null,
  };
}
