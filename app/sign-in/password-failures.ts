'use client';

import { useCallback, useEffect, useState } from 'react';

const KEY = 'sign-in-password-failures';
/** After this many failed password attempts from this tab, the page explains the pause unasked. */
export const EXPLAIN_AFTER = 3;

function read(): number {
  try {
    return Number(sessionStorage.getItem(KEY)) || 0;
  } catch {
    return 0; // Storage may be off (privacy settings): count for this page view only.
  }
}

/**
 * How many password attempts failed in this browser tab (kept across reloads, since waiting and
 * reloading is what people do). Only the browser's own experience counts: the API answers every
 * failure identically, so this never learns, or shows, whether an account exists or is paused.
 */
export function usePasswordFailures(): { failures: number; failed: () => void; succeeded: () => void } {
  const [failures, setFailures] = useState(0);
  // Read after hydration: the server cannot know, and the first render must match its HTML.
  useEffect(() => setFailures(read()), []);
  const failed = useCallback(() => {
    const next = read() + 1;
    try {
      sessionStorage.setItem(KEY, String(next));
    } catch {
      // See read().
    }
    setFailures((current) => Math.max(current + 1, next));
  }, []);
  // The right password went through: nothing paused, nothing left to explain next time.
  const succeeded = useCallback(() => {
    try {
      sessionStorage.removeItem(KEY);
    } catch {
      // See read().
    }
  }, []);
  return { failures, failed, succeeded };
}
