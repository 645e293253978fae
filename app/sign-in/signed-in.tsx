'use client';

import { signOut } from '../_components/auth/sign-out';
import { ErrorAlert } from '../_components/auth/error-alert';
import { useApiAction } from '../_components/auth/use-api-action';
import { withReturnTo } from './return-to';

/**
 * /sign-in with a live session: nothing to fill in. Continuing keeps the session (and goes where the
 * person was headed); signing out comes back here, with the same destination, for another account.
 * A plain link, not client routing: return_to may be a route handler such as /oauth/authorize.
 */
export function SignedIn({ email, returnTo }: { email: string; returnTo: string }) {
  const { pending, error, run } = useApiAction();

  return (
    <section className="card auth-card" aria-labelledby="signed-in-heading">
      <h2 id="signed-in-heading">You&rsquo;re already signed in</h2>
      <div className="auth-actions">
        <a className="auth-button-link" href={returnTo}>
          <span className="auth-email">Continue as {email}</span>
        </a>
        <button
          type="button"
          className="auth-secondary"
          onClick={() => run(() => signOut(withReturnTo('/sign-in', returnTo)), { navigatesOnSuccess: true })}
          disabled={pending}
        >
          Sign out
        </button>
      </div>
      <p className="hint">To use another account, sign out first.</p>
      <ErrorAlert message={error} />
    </section>
  );
}
