import type { Metadata } from 'next';
import Link from 'next/link';
import '../auth.css';
import { safeReturnTo, withReturnTo } from '../sign-in/return-to';
import { invitationTokenIn } from './invitation-token';
import { SignUpFlow } from './sign-up-flow';

export const metadata: Metadata = {
  title: 'Create your account',
  // Begun from an invitation, the address carries the invitation's token (in return_to): requests
  // from this page send only our origin as Referer (as on the invitation page itself).
  referrer: 'strict-origin',
};

export default async function SignUpPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  // A sign-up begun from a sign-in on its way somewhere (an application's consent) goes there too.
  const returnTo = safeReturnTo((await searchParams).return_to);
  const invitationToken = invitationTokenIn(returnTo);
  return (
    <div className="auth-page auth-narrow">
      <h1>Create your account</h1>
      <p className="lead">
        {invitationToken
          ? 'You were invited by e-mail, and the invitation link confirms your address: no code needed. Choose how to sign in, with a passkey or a password; then you come back to the invitation to join.'
          : 'First we confirm your e-mail address with a code. Then you choose how to sign in: with a passkey or a password.'}
      </p>
      <SignUpFlow returnTo={returnTo} invitationToken={invitationToken} />
      <p className="auth-links">
        Already have an account? <Link href={withReturnTo('/sign-in', returnTo)}>Sign in instead</Link>
      </p>
    </div>
  );
}
