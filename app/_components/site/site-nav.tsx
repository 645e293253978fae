import Link from 'next/link';
import { SignOutButton } from '../auth/sign-out-button';
import { SiteLink } from './site-link';

/**
 * The header's links, rendered on the server from the visitor's session (the layout reads it once).
 * Sign-in and sign-out finish with a full navigation, so this always reflects the current state.
 * Signed in, the console and the portal join Docs and Status; the account links sit apart from the
 * site's areas (on a phone they share the brand's line, the areas take the line below).
 */
export function SiteNav({ signedIn }: { signedIn: boolean }) {
  return (
    <>
      <ul className="site-areas">
        <li>
          <SiteLink href="/docs">Docs</SiteLink>
        </li>
        <li>
          <SiteLink href="/status">Status</SiteLink>
        </li>
        {signedIn && (
          <>
            <li>
              <SiteLink href="/console">Console</SiteLink>
            </li>
            <li>
              <SiteLink href="/portal">Portal</SiteLink>
            </li>
          </>
        )}
      </ul>
      <ul className="site-account">
        {signedIn ? (
          <>
            <li>
              <SiteLink href="/account">Account</SiteLink>
            </li>
            <li>
              <SignOutButton />
            </li>
          </>
        ) : (
          <>
            <li>
              <Link href="/sign-in">Sign in</Link>
            </li>
            <li>
              <Link href="/sign-up">Sign up</Link>
            </li>
          </>
        )}
      </ul>
    </>
  );
}
