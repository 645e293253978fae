'use client';

import Link from 'next/link';
import { useMemo, type ReactNode } from 'react';
import { AccountContext } from '@/app/_components/account-context';
import { ActivitySection } from './activity-section';
import { ApiKeysSection } from './api-keys-section';
import { ApiResourcesSection } from './api-resources-section';
import { ApplicationsSection } from './applications-section';
import { PORTAL_SECTIONS, portalHref, type PortalSectionId } from './sections';
import type { ScopeChoice } from './application-scopes';
import { WebhooksSection } from './webhooks-section';

/**
 * The portal's client side: the section nav and the chosen section. The account context carries the
 * CSRF token and passkey presence that the shared step-up panel needs.
 */
export function PortalRoot({
  csrf,
  hasPasskeys,
  section,
  scopes,
  localReceivers,
}: {
  csrf: string;
  hasPasskeys: boolean;
  section: PortalSectionId;
  scopes: ScopeChoice[];
  localReceivers: boolean;
}) {
  const account = useMemo(() => ({ csrf, hasPasskeys }), [csrf, hasPasskeys]);
  const render: Record<PortalSectionId, () => ReactNode> = {
    applications: () => <ApplicationsSection scopes={scopes} />,
    apis: () => <ApiResourcesSection />,
    'api-keys': () => <ApiKeysSection />,
    webhooks: () => <WebhooksSection localReceivers={localReceivers} />,
    activity: () => <ActivitySection />,
  };

  return (
    <AccountContext value={account}>
      <p className="hint portal-intro">
        Register the applications that sign people in with this service and the APIs they call, create API keys for your scripts, and receive signed webhooks.
        Changes ask you to confirm it’s you.
      </p>
      <div className="console-layout">
        <nav className="console-nav" aria-label="Portal sections">
          <ul>
            {PORTAL_SECTIONS.map((candidate) => (
              <li key={candidate.id}>
                <Link href={portalHref(candidate.id)} aria-current={candidate.id === section ? 'page' : undefined}>
                  {candidate.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div className="console-section">{render[section]()}</div>
      </div>
    </AccountContext>
  );
}
