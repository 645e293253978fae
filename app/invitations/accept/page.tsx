import type { Metadata } from 'next';
import Link from 'next/link';
import '../../auth.css';
import { visitorSession } from '../../_components/auth/server-session';
import { withReturnTo } from '../../sign-in/return-to';
import { AcceptInvitation } from './accept-invitation';
import { InvitationOffer } from './invitation-offer';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = {
  title: 'Join an organization',
  // The address carries the invitation's token: requests from this page (the accept call, links
  // followed) send only our origin as Referer, never the path and query. Not `no-referrer`: under
  // it Chromium sends `Origin: null` on same-origin POSTs, and the accept call needs our exact Origin.
  referrer: 'strict-origin',
};

/**
 * /invitations/accept?token=...: where the invitation mail's link lands. The server only reads the
 * visitor's session (through the API). In the browser the token goes, in POST bodies, to
 * /api/organizations/invitations/preview (the organization and role the heading names, or "not valid")
 * and, when the signed-in person presses Join, to /api/organizations/invitations/accept; it is never
 * checked or logged here.
 */
export default async function AcceptInvitationPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const raw = (await searchParams).token;
  const token = typeof raw === 'string' && /^[A-Za-z0-9_-]{1,256}$/.test(raw) ? raw : null;

  if (!token) {
    return (
      <div className="auth-page auth-narrow">
        <h1>Join an organization</h1>
        <p className="lead">This invitation link is incomplete. Open the link from the invitation e-mail again, or ask for a new invitation.</p>
      </div>
    );
  }

  const here = `/invitations/accept?token=${token}`;
  const session = await visitorSession();
  return (
    <div className="auth-page auth-narrow">
      <InvitationOffer token={token}>
        {session ? (
          <>
            <p className="lead">
              You are signed in as <strong className="auth-email">{session.user.email}</strong>. The invitation must have been sent to this address.
            </p>
            <AcceptInvitation token={token} csrf={session.csrf_token} email={session.user.email} returnTo={here} />
          </>
        ) : (
          <>
            <p className="lead">Sign in, or create an account, with the e-mail address the invitation was sent to; you come back here afterwards.</p>
            <div className="auth-actions">
              <Link className="auth-button-link" href={withReturnTo('/sign-in', here)}>
                Sign in to accept
              </Link>
            </div>
            <p className="auth-links">
              No account yet? <Link href={withReturnTo('/sign-up', here)}>Create an account</Link>: the invitation link confirms your address, no code needed.
            </p>
          </>
        )}
      </InvitationOffer>
    </div>
  );
}
