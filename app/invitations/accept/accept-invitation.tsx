'use client';

import { useEffect, useRef } from 'react';
import { CONTRACTS } from '@/lib/http/contracts';
import { callContract } from '../../_components/api/call';
import { signOut } from '../../_components/auth/sign-out';
import { useApiAction } from '../../_components/auth/use-api-action';
import { withReturnTo } from '../../sign-in/return-to';
import { useJoined } from './invitation-offer';

/**
 * "Join as <address>": posts the link's token with the session's CSRF token. On success the page
 * says what happened and offers the way into the console (InvitationOffer); on failure the API's message is shown and focused (it never names
 * the invited address), with a way to sign out and come back with another account.
 */
export function AcceptInvitation({ token, csrf, email, returnTo }: { token: string; csrf: string; email: string; returnTo: string }) {
  const { pending, error, run } = useApiAction();
  const leaving = useApiAction();
  const joined = useJoined();
  const alert = useRef<HTMLParagraphElement>(null);
  const message = error ?? leaving.error;

  useEffect(() => {
    if (message) alert.current?.focus();
  }, [message]);

  async function join() {
    const result = await run(() => callContract(CONTRACTS.acceptOrganizationInvitation, { body: { token } }, { csrf }));
    if (result?.ok) {
      // The token is used up: keep it out of the address bar and the history from here on.
      window.history.replaceState(null, '', '/invitations/accept');
      joined(result.body);
    }
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
