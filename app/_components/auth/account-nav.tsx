import Link from 'next/link';
import { visitorSession } from './server-session';
import { SignOutButton } from './sign-out-button';

/**
 * The header's account links, rendered on the server from the visitor's cookie. Sign-in and
 * sign-out finish with a full navigation, so this always reflects the current state.
 */
export async function AccountNav() {
  const signedIn = (await visitorSession()) !== null;
  if (!signedIn) return <Link href="/sign-in">Sign in</Link>;
  return (
    <>
      <Link href="/account">Account</Link>
      <SignOutButton />
    </>
  );
}
