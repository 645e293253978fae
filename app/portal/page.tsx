import type { Metadata } from 'next';
import Link from 'next/link';
import '../auth.css';
import '../console/console.css';
import './portal.css';
import { CONTRACTS } from '@/lib/http/contracts';
import { callAsVisitor, visitorSession } from '../_components/auth/server-session';
import { getConfig } from '@/lib/config';
import { APPLICATION_SCOPES } from './application-scopes';
import { PortalRoot } from './portal-root';
import { isPortalSection } from './sections';

export const metadata: Metadata = { title: 'Developer portal' };
export const dynamic = 'force-dynamic';

/**
 * The developer portal: a server shell (session, passkey presence for the step-up panel) around
 * client sections that call the documented developer API from the browser.
 */
export default async function PortalPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { section } = await searchParams;
  const current = await visitorSession();

  if (!current) {
    const here = isPortalSection(section) ? `/portal?section=${section}` : '/portal';
    return (
      <div className="auth-page auth-narrow">
        <h1>Developer portal</h1>
        <p>Sign in to register applications, create API keys and webhooks, and see what you did with them.</p>
        <div>
          <Link className="auth-button-link" href={`/sign-in?return_to=${encodeURIComponent(here)}`}>
            Sign in
          </Link>
        </div>
      </div>
    );
  }

  const passkeys = await callAsVisitor(CONTRACTS.listOwnPasskeys, {});
  return (
    <div className="auth-page console-page portal-page">
      <h1>Developer portal</h1>
      <PortalRoot
        csrf={current.csrf_token}
        // Unknown (the list failed): offer what the step-up answer names rather than hide the passkey.
        hasPasskeys={passkeys === null || passkeys.passkeys.length > 0}
        section={isPortalSection(section) ? section : 'applications'}
        scopes={APPLICATION_SCOPES}
        // Webhooks may reach receivers on this machine (lib/platform/outbound.ts): the section says so.
        localReceivers={getConfig().localDevelopment}
      />
    </div>
  );
}
