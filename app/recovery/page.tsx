import type { Metadata } from 'next';
import Link from 'next/link';
import '../auth.css';
import { RecoveryFlow } from './recovery-flow';

export const metadata: Metadata = { title: 'Recover your account' };

export default function RecoveryPage() {
  return (
    <div className="auth-page auth-narrow">
      <h1>Recover your account</h1>
      <p className="lead">
        Lost your passkey or forgot your password? Prove you own the account&rsquo;s e-mail address, then set up a new passkey or password.
      </p>
      <RecoveryFlow />
      <p className="auth-links">
        Remembered it? <Link href="/sign-in">Back to sign-in</Link>
      </p>
    </div>
  );
}
