import type { Metadata } from 'next';
import Link from 'next/link';
import '../auth.css';
import { SignUpFlow } from './sign-up-flow';

export const metadata: Metadata = { title: 'Create your account' };

export default function SignUpPage() {
  return (
    <div className="auth-page auth-narrow">
      <h1>Create your account</h1>
      <p className="lead">First we confirm your e-mail address with a code. Then you choose how to sign in: with a passkey or a password.</p>
      <SignUpFlow />
      <p className="auth-links">
        Already have an account? <Link href="/sign-in">Sign in instead</Link>
      </p>
    </div>
  );
}
