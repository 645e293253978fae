import type { Metadata } from 'next';
import Link from 'next/link';
import '../auth.css';
import { safeReturnTo, withReturnTo } from '../sign-in/return-to';
import { SignUpFlow } from './sign-up-flow';

export const metadata: Metadata = { title: 'Create your account' };

export default async function SignUpPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  // A sign-up begun from a sign-in on its way somewhere (an application's consent) goes there too.
  const returnTo = safeReturnTo((await searchParams).return_to);
  return (
    <div className="auth-page auth-narrow">
      <h1>Create your account</h1>
      <p className="lead">First we confirm your e-mail address with a code. Then you choose how to sign in: with a passkey or a password.</p>
      <SignUpFlow returnTo={returnTo} />
      <p className="auth-links">
        Already have an account? <Link href={withReturnTo('/sign-in', returnTo)}>Sign in instead</Link>
      </p>
    </div>
  );
}
