'use client';

import { useCallback, useEffect, useRef, useState } from 'react';
import { bodyField, problemMessage, type ApiResult, type Problem } from './api';
import { PASSKEY_ABORTED } from './passkey';

export type FieldErrors = Readonly<Record<string, string>>;

/**
 * Splits a problem between the form's own fields (each message shown next to its field) and the rest
 * (shown in the form's alert; null when every field error found its field).
 */
function placeProblem(problem: Problem, fields: readonly string[]): { fieldErrors: FieldErrors; error: string | null } {
  const placed: Record<string, string> = {};
  const rest: string[] = [];
  for (const item of problem.errors ?? []) {
    const field = bodyField(item);
    if (field !== null && fields.includes(field)) placed[field] = placed[field] ? `${placed[field]} ${item.message}` : item.message;
    else rest.push(item.message);
  }
  if (!problem.errors?.length) return { fieldErrors: placed, error: problemMessage(problem) };
  return { fieldErrors: placed, error: rest.length ? rest.join(' ') : null };
}

/**
 * Pending and error state for one button or form: disables it while a call is in flight and turns a
 * failed ApiResult into sentences: field errors for the `fields` the form renders go next to those
 * fields (`fieldErrors`), anything else to its alert (`error`). Actions that navigate away on success
 * keep the control disabled so it cannot be pressed twice while the next page loads.
 */
export function useApiAction(options: { fields?: readonly string[] } = {}) {
  // The fields a form renders do not change while it is mounted; the first list is the list.
  const [fields] = useState(options.fields ?? NO_FIELDS);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>(NO_ERRORS);
  const focusedBefore = useRef<HTMLElement | null>(null);

  // A button that gets disabled while focused drops keyboard focus to <body>; put it back when the
  // call is over, unless the next step already moved focus somewhere on purpose.
  useEffect(() => {
    const element = focusedBefore.current;
    if (pending || !element) return;
    focusedBefore.current = null;
    if (element.isConnected && (document.activeElement === null || document.activeElement === document.body)) element.focus();
  }, [pending]);

  const run = useCallback(
    async <T>(action: () => Promise<ApiResult<T> | null>, options: { navigatesOnSuccess?: boolean } = {}) => {
      focusedBefore.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      setPending(true);
      setError(null);
      setFieldErrors(NO_ERRORS);
      let keepPending = false;
      try {
        const result = await action();
        // null means the person backed out (e.g. cancelled a step-up); a superseded passkey prompt is silent too.
        if (result && !result.ok && result.body.code !== PASSKEY_ABORTED) {
          const placed = placeProblem(result.body, fields);
          setFieldErrors(placed.fieldErrors);
          setError(placed.error);
        }
        keepPending = Boolean(result?.ok && options.navigatesOnSuccess);
        return result;
      } finally {
        if (!keepPending) setPending(false);
      }
    },
    [fields],
  );

  const clearErrors = useCallback(() => {
    setError(null);
    setFieldErrors(NO_ERRORS);
  }, []);

  return { pending, error, setError, fieldErrors, clearErrors, run };
}

const NO_FIELDS: readonly string[] = [];
const NO_ERRORS: FieldErrors = {};

/** The trimmed text value of a named form control. */
export function fieldValue(form: HTMLFormElement, name: string): string {
  return passwordValue(form, name).trim();
}

/** A password exactly as typed: leading and trailing spaces are part of it. */
export function passwordValue(form: HTMLFormElement, name: string): string {
  const value = new FormData(form).get(name);
  return typeof value === 'string' ? value : '';
}
