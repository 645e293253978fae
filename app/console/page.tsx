import type { Metadata } from 'next';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import '../auth.css';
import './console.css';
import { CONTRACTS } from '@/lib/http/contracts';
import { callAsVisitor, visitorSession } from '../_components/auth/server-session';
import { ConsoleRoot } from './console-root';
import { consoleHref, isSectionId } from './sections';

export const metadata: Metadata = { title: 'Organizations' };
export const dynamic = 'force-dynamic';

type Query = Record<string, string | string[] | undefined>;

const one = (value: string | string[] | undefined): string | undefined => (typeof value === 'string' ? value : undefined);

/** This view's own URL (organization, section and pre-filled values), for sign-in's return_to. */
function currentUrl(query: Query): string {
  const kept = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (typeof value === 'string') kept.set(key, value);
  const search = kept.toString();
  return search ? `/console?${search}` : '/console';
}

export default async function ConsolePage({ searchParams }: { searchParams: Promise<Query> }) {
  const query = await searchParams;
  const current = await visitorSession();

  if (!current) {
    return (
      <div className="auth-page auth-narrow">
        <h1>Organizations</h1>
        <p>Sign in to create an organization or manage the ones you belong to.</p>
        <div>
          <Link className="auth-button-link" href={`/sign-in?return_to=${encodeURIComponent(currentUrl(query))}`}>
            Sign in
          </Link>
        </div>
      </div>
    );
  }

  const [organizations, passkeys] = await Promise.all([callAsVisitor(CONTRACTS.listSessionOrganizations, {}), callAsVisitor(CONTRACTS.listOwnPasskeys, {})]);
  const list = organizations?.organizations ?? null;
  const requested = one(query.organization);
  // One organization or more and none chosen: open the first, so the URL always names what is shown.
  if (!requested && list && list.length > 0) redirect(consoleHref(list[0]!.id));

  const section = one(query.section);
  return (
    <div className="auth-page console-page">
      <h1>Organizations</h1>
      <ConsoleRoot
        csrf={current.csrf_token}
        // Unknown (the list failed): offer what the step-up answer names rather than hide the passkey.
        hasPasskeys={passkeys === null || passkeys.passkeys.length > 0}
        userId={current.user.id}
        organizations={list}
        selectedId={requested ?? null}
        section={isSectionId(section) ? section : null}
        prefill={{ action: one(query.action) ?? '', target: one(query.target) ?? '' }}
      />
    </div>
  );
}
