import Link from 'next/link';

export interface LockoutPolicy {
  threshold: number;
  minutes: number;
}

/**
 * What the lockout mail says, told on the page before anyone needs it: the API's answer to a paused
 * account is the generic failure (so a guesser learns nothing), which is exactly why a person must be
 * told that the right password can be refused for a while, how long, and what still works.
 */
export function PasswordPauseNote({ id, policy, onCodeInstead }: { id: string; policy: LockoutPolicy; onCodeInstead: () => void }) {
  return (
    <div className="auth-pause" role="note">
      {/* Also the password field's description, so it is read out when a failure puts focus back there. */}
      <p id={id}>
        Password sign-in pauses after {policy.threshold} wrong passwords in a row: for {policy.minutes} minutes, longer if it happens again. Meanwhile even the
        right password is refused, and the account&rsquo;s address gets an e-mail about it. A passkey, a code by e-mail and account recovery keep working.
      </p>
      <div className="auth-actions">
        <button type="button" className="auth-secondary" onClick={onCodeInstead}>
          E-mail me a code instead
        </button>
        <Link href="/recovery">Recover your account</Link>
      </div>
    </div>
  );
}
