'use client';

import { useMemo } from 'react';
import { AccountContext } from '@/app/_components/account-context';
import { ConsoleShell } from './console-shell';
import { CreateOrganization } from './create-organization';
import { OrganizationSwitcher } from './organization-switcher';
import type { SectionId } from './sections';
import type { MyOrganization } from './contract-types';

/**
 * The console's client side: the switcher (GET /api/auth/organizations, rendered by the page), the
 * empty state, and the selected organization's sections. The account context carries the CSRF token
 * and passkey presence that the shared step-up panel needs.
 */
export function ConsoleRoot({
  csrf,
  hasPasskeys,
  userId,
  organizations,
  selectedId,
  section,
  prefill,
}: {
  csrf: string;
  hasPasskeys: boolean;
  userId: string;
  organizations: MyOrganization[] | null;
  selectedId: string | null;
  section: SectionId | null;
  prefill: { action: string; target: string };
}) {
  const account = useMemo(() => ({ csrf, hasPasskeys }), [csrf, hasPasskeys]);
  const selected = organizations?.find((organization) => organization.id === selectedId) ?? null;

  if (organizations === null) {
    return (
      <AccountContext value={account}>
        <p role="alert" className="error">
          Your organizations could not be loaded. Reload the page to try again.
        </p>
      </AccountContext>
    );
  }

  if (organizations.length === 0) {
    return (
      <AccountContext value={account}>
        <section className="card auth-card" aria-labelledby="console-empty-heading">
          <h2 id="console-empty-heading">You are not in any organization yet</h2>
          <p>
            Create one to invite colleagues, give them roles and set the rules they sign in under. If someone invited you, open the link in their invitation
            e-mail instead.
          </p>
          <CreateOrganization />
        </section>
      </AccountContext>
    );
  }

  return (
    <AccountContext value={account}>
      <div className="console-top">
        <OrganizationSwitcher key={`switcher:${selected?.id}`} organizations={organizations} selectedId={selected?.id ?? null} />
        <details key={`create:${selected?.id}`} className="console-create">
          <summary>Create an organization</summary>
          <CreateOrganization />
        </details>
      </div>
      {selected ? (
        <ConsoleShell key={selected.id} organizationId={selected.id} userId={userId} section={section} prefill={prefill} />
      ) : (
        <p role="alert" className="error">
          This organization is not one of yours (or you are no longer a member). Choose one of your organizations above.
        </p>
      )}
    </AccountContext>
  );
}
