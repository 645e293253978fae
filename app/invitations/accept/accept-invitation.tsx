'use client';

import { useEffect, useRef, useState } from 'react';
import { callApi, signOut } from '../../_components/auth/api';
import { SuccessPanel } from '../../_components/auth/success-panel';
import { useApiAction } from '../../_components/auth/use-api-action';
import { withReturnTo } from '../../sign-in/return-to';

interface Accepted {
  organization_id: string;
  membership_id: string;
}

/**
 * "Join as <address>": posts the link's token with the session's CSRF token. On success the page
 * offers the way into the console; on failure the API's message is shown and focused (it never names
 * the invited address), with a way to sign out and come back with another account.
 */
export function AcceptInvitation({ token, csrf, email, returnTo }: { token: string; csrf: string; email: string; returnTo: string }) {
  const { pending, error, run } = useApiAction();
  const leaving = useApiAction();
  const [joined, setJoined] = useState<Accepted | null>(null);
  const alert = useRef<HTMLParagraphElement>(null);
  const message = error ?? leaving.error;

  useEffect(() => {
    if (message) alert.current?.focus();
  }, [message]);

  async function join() {
    const result = await run(() => callApi<Accepted>('/api/organizations/invitations/accept', { token }, { csrf }));
    if (result?.ok) {
      setJoined(result.body);
      // The token is used up: keep it out of the address bar and the history from here on.
      window.history.replaceState(null, '', '/invitations/accept');
    }
  }

  if (joined) {
    return (
      <SuccessPanel title="You joined the organization">
        <p>You are now a member.</p>
        <a className="auth-button-link" href={`/console?organization=${encodeURIComponent(joined.organization_id)}`}>
          Open the organization
        </a>
      </SuccessPanel>
    );
  }

  return (
    <section className="card auth-card" aria-labelledby="invitation-heading">
      <h2 id="invitation-heading">Accept the invitation</h2>
      <div className="auth-actions">
        <button type="button" onClick={join} disabled={pending || leaving.pending}>
          <span className="auth-email">Join as {email}</span>
        </button>
        <button
          type="button"
          className="auth-secondary"
          onClick={() => leaving.run(() => signOut(withReturnTo('/sign-in', returnTo)), { navigatesOnSuccess: true })}
          disabled={pending || leaving.pending}
        >
          Use another account
        </button>
      </div>
      {message && (
        <p role="alert" className="error auth-alert" ref={alert} tabIndex={-1}>
          {message}
        </p>
      )}
    </section>
  );
}
