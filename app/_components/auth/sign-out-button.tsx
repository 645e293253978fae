'use client';

import '../../auth.css';
import { signOut } from './sign-out';
import { useApiAction } from './use-api-action';

/** The header's sign-out: revokes the current session (which clears the cookie) and goes home. */
export function SignOutButton() {
  const { pending, error, run } = useApiAction();

  return (
    <span className="auth-signout">
      <button type="button" className="auth-nav-button" onClick={() => run(() => signOut('/'), { navigatesOnSuccess: true })} disabled={pending}>
        Sign out
      </button>
      {error && (
        <span role="alert" className="error auth-signout-error">
          {error}
        </span>
      )}
    </span>
  );
}
