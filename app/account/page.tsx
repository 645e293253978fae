import type { Metadata } from 'next';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import '../auth.css';
import { CONTRACTS } from '@/lib/http/contracts';
import { visitorSession, callAsVisitor } from '../_components/auth/server-session';
import { AccountSections } from './account-sections';
import { ConsentsSection } from './consents-section';
import { localeOptions, timeZoneGroups } from './profile-options';
import { ProfileSection } from './profile-section';

export const metadata: Metadata = { title: 'Your account' };
export const dynamic = 'force-dynamic';

export default async function AccountPage() {
  const current = await visitorSession();
  if (!current) redirect('/sign-in?return_to=/account');

  const [sessions, passkeys, consents, password, deletion] = await Promise.all([
    callAsVisitor(CONTRACTS.listSessions, {}),
    callAsVisitor(CONTRACTS.listOwnPasskeys, {}),
    callAsVisitor(CONTRACTS.listConsents, {}),
    callAsVisitor(CONTRACTS.getPasswordStatus, {}),
    callAsVisitor(CONTRACTS.getDeletionRequest, {}),
  ]);

  return (
    <div className="auth-page">
      <h1>Your account</h1>
      <dl className="card auth-profile">
        <div>
          <dt>E-mail address</dt>
          <dd className="auth-email">{current.user.email}</dd>
        </div>
      </dl>
      <p className="auth-links">
        <Link href="/console">Organizations</Link>: create an organization or manage the ones you belong to.
      </p>
      <p className="auth-links">
        <Link href="/portal">Developer portal</Link>: register applications, create API keys and webhooks.
      </p>
      <ProfileSection
        csrf={current.csrf_token}
        initial={current.user}
        locales={localeOptions(current.user.locale)}
        timeZones={timeZoneGroups(current.user.timezone)}
      />
      <AccountSections
        csrf={current.csrf_token}
        initialSessions={sessions?.sessions ?? null}
        initialPasskeys={passkeys?.passkeys ?? null}
        hasPassword={password?.set ?? true}
        initialDeletion={deletion}
      />
      <ConsentsSection csrf={current.csrf_token} initial={consents?.consents ?? null} />
    </div>
  );
}
