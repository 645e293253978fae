import type { Metadata } from 'next';
import Link from 'next/link';
import { PASSWORD_LOCKOUT_POLICY } from '@/lib/accounts';
import '../auth.css';
import { visitorSession } from '../_components/auth/server-session';
import { ErrorAlert } from '../_components/auth/error-alert';
import { federationMessage } from './federation-results';
import { FederationSignIn } from './federation-sign-in';
import { safeReturnTo, withReturnTo } from './return-to';
import { SignedIn } from './signed-in';
import { SignInMethods } from './sign-in-methods';

export const metadata: Metadata = { title: 'Sign in' };

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const query = await searchParams;
  const returnTo = safeReturnTo(query.return_to);
  // An application asked for a fresh sign-in (OIDC prompt=login or max_age), even if one is live.
  const again = query.reauthenticate === '1';
  const current = again ? null : await visitorSession();
  // A federated sign-in that came back without signing anyone in says why (never more than that).
  const federationProblem = federationMessage(query.federation);

  if (current) {
    return (
      <div className="auth-page auth-narrow">
        <h1>Sign in</h1>
        <SignedIn email={current.user.email} returnTo={returnTo} />
      </div>
    );
  }

  return (
    <div className="auth-page">
      <h1>{again ? 'Sign in again' : 'Sign in'}</h1>
      <p className="lead">
        {again ? 'The application asks you to confirm it is you before it continues. ' : ''}
        Use a passkey, your password, or a code we e-mail to you. If your organization uses single sign-on, continue with your work account.
      </p>
      <ErrorAlert message={federationProblem} />
      <SignInMethods returnTo={returnTo} lockout={PASSWORD_LOCKOUT_POLICY} />
      <div className="auth-methods">
        <FederationSignIn />
      </div>
      <p className="auth-links">
        New here? <Link href={withReturnTo('/sign-up', returnTo)}>Create an account</Link>
        <span aria-hidden="true"> · </span>
        Lost access? <Link href="/recovery">Recover your account</Link>
      </p>
    </div>
  );
}
