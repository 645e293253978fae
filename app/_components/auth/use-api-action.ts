'use client';

import { useCallback, useEffect, useRef, useState } from 'react';
import { problemMessage, type ApiResult } from './api';
import { PASSKEY_ABORTED } from './passkey';

/**
 * Pending and error state for one button or form: disables it while a call is in flight and turns a
 * failed ApiResult into the sentence shown in its alert. Actions that navigate away on success keep
 * the control disabled so it cannot be pressed twice while the next page loads.
 */
export function useApiAction() {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const focusedBefore = useRef<HTMLElement | null>(null);

  // A button that gets disabled while focused drops keyboard focus to <body>; put it back when the
  // call is over, unless the next step already moved focus somewhere on purpose.
  useEffect(() => {
    const element = focusedBefore.current;
    if (pending || !element) return;
    focusedBefore.current = null;
    if (element.isConnected && (document.activeElement === null || document.activeElement === document.body)) element.focus();
  }, [pending]);

  const run = useCallback(async <T,>(action: () => Promise<ApiResult<T> | null>, options: { navigatesOnSuccess?: boolean } = {}) => {
    focusedBefore.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    setPending(true);
    setError(null);
    let keepPending = false;
    try {
      const result = await action();
      // null means the person backed out (e.g. cancelled a step-up); a superseded passkey prompt is silent too.
      if (result && !result.ok && result.body.code !== PASSKEY_ABORTED) setError(problemMessage(result.body));
      keepPending = Boolean(result?.ok && options.navigatesOnSuccess);
      return result;
    } finally {
      if (!keepPending) setPending(false);
    }
  }, []);

  return { pending, error, setError, run };
}

/** The trimmed text value of a named form control. */
export function fieldValue(form: HTMLFormElement, name: string): string {
  return passwordValue(form, name).trim();
}

/** A password exactly as typed: leading and trailing spaces are part of it. */
export function passwordValue(form: HTMLFormElement, name: string): string {
  const value = new FormData(form).get(name);
  return typeof value === 'string' ? value : '';
}
