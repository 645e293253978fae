'use client';

import Link from 'next/link';
import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { problemMessage } from '../_components/auth/api';
import type { Permission } from '@/lib/contract/permissions';
import { callContract } from '../_components/api/call';
import { leftForSignIn } from '../_components/auth/signed-in-api';
import { CONTRACTS } from '@/lib/http/contracts';
import { ConsoleContext, type ConsoleContextValue } from './console-context';
import { SECTIONS, consoleHref, type SectionId } from './sections';
import { ActionsSection } from './sections/actions-section';
import { ApprovalsSection } from './sections/approvals-section';
import { AuditSection } from './sections/audit-section';
import { DelegationsSection } from './sections/delegations-section';
import { DomainsSection } from './sections/domains-section';
import { GroupsSection } from './sections/groups-section';
import { InvitationsSection } from './sections/invitations-section';
import { MembersSection } from './sections/members-section';
import { PoliciesSection } from './sections/policies-section';
import { RolesSection } from './sections/roles-section';
import { SettingsSection } from './sections/settings-section';
import { SsoSection } from './sections/sso-section';
import { DirectorySection } from './sections/directory-section';
import type { OrganizationDetail } from './contract-types';

type Prefill = { action: string; target: string };

const RENDER: Record<SectionId, (prefill: Prefill) => ReactNode> = {
  members: () => <MembersSection />,
  invitations: () => <InvitationsSection />,
  groups: () => <GroupsSection />,
  roles: () => <RolesSection />,
  policies: () => <PoliciesSection />,
  delegations: () => <DelegationsSection />,
  approvals: (prefill) => <ApprovalsSection prefill={prefill} />,
  actions: () => <ActionsSection />,
  domains: () => <DomainsSection />,
  sso: () => <SsoSection />,
  directory: () => <DirectorySection />,
  audit: () => <AuditSection />,
  settings: () => <SettingsSection />,
};

/**
 * The selected organization: read (GET /api/organizations/{id}) for its name and the caller's
 * effective permissions, which decide the sections shown; the API still has the last word (403).
 */
export function ConsoleShell({
  organizationId,
  userId,
  section,
  prefill,
}: {
  organizationId: string;
  userId: string;
  section: SectionId | null;
  prefill: Prefill;
}) {
  const [organization, setOrganization] = useState<OrganizationDetail | null>(null);
  const [error, setError] = useState<string | null>(null);

  const reloadOrganization = useCallback(async () => {
    const result = await callContract(CONTRACTS.getOrganization, { params: { id: organizationId } });
    leftForSignIn(result);
    if (result.ok) setOrganization(result.body);
    else if (result.status === 404) setError('This organization was not found, or you are no longer a member of it.');
    else if (result.status !== 401) setError(problemMessage(result.body));
  }, [organizationId]);

  useEffect(() => {
    void reloadOrganization();
  }, [reloadOrganization]);

  const context = useMemo<ConsoleContextValue | null>(() => {
    if (!organization) return null;
    const held = new Set<string>(organization.membership.permissions);
    return {
      organization,
      userId,
      can: (permission: Permission) => held.has(permission),
      isOwner: organization.membership.role === 'owner',
      reloadOrganization,
    };
  }, [organization, userId, reloadOrganization]);

  if (!context) {
    return error ? (
      <p role="alert" className="error">
        {error}
      </p>
    ) : (
      <p className="hint" role="status">
        Loading the organization…
      </p>
    );
  }

  const visible = SECTIONS.filter((candidate) => context.can(candidate.permission));
  const current = section ?? visible[0]?.id ?? 'settings';
  const allowed = visible.some((candidate) => candidate.id === current);
  const label = SECTIONS.find((candidate) => candidate.id === current)?.label ?? '';

  return (
    <ConsoleContext value={context}>
      <div className="console-layout">
        <nav className="console-nav" aria-label={`${context.organization.name} sections`}>
          <p className="console-org-name">
            <strong>{context.organization.name}</strong> <span className="hint">({context.organization.slug})</span>
          </p>
          <ul>
            {visible.map((candidate) => (
              <li key={candidate.id}>
                <Link href={consoleHref(organizationId, candidate.id)} aria-current={candidate.id === current ? 'page' : undefined}>
                  {candidate.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div className="console-section">
          {allowed ? (
            RENDER[current](prefill)
          ) : (
            <section aria-labelledby="console-denied-heading">
              <h2 id="console-denied-heading">{label}</h2>
              <p>Your role in this organization does not include this section. Ask an owner or administrator if you need it.</p>
            </section>
          )}
        </div>
      </div>
    </ConsoleContext>
  );
}
