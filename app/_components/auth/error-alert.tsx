/**
 * Where a failure is read out. Rendered only when there is something to say: an element with
 * role="alert" is announced when it is inserted, and empty alerts would clutter the page's list of
 * alerts for assistive technology (and for tests that look for "the" alert).
 */
export function ErrorAlert({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <p role="alert" className="error auth-alert">
      {message}
    </p>
  );
}

/**
 * Polite confirmation ("A new code is on its way") that does not interrupt. A status region must
 * exist before its text changes to be announced, so this one is always rendered.
 */
export function StatusNote({ message }: { message: string | null }) {
  return (
    <p role="status" className={message ? 'auth-status' : 'auth-status-empty'}>
      {message}
    </p>
  );
}
