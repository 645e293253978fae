import type { Permission } from '@/lib/contract/permissions';

/**
 * The console's sections, in nav order, with the permission needed to see each (the one its list
 * endpoint declares). What a section lets you change is decided inside it.
 */
export const SECTIONS = [
  { id: 'members', label: 'Members', permission: 'read' },
  { id: 'invitations', label: 'Invitations', permission: 'invitations.manage' },
  { id: 'groups', label: 'Groups', permission: 'read' },
  { id: 'roles', label: 'Roles', permission: 'read' },
  { id: 'policies', label: 'Policies', permission: 'read' },
  { id: 'delegations', label: 'Delegated admins', permission: 'delegations.manage' },
  { id: 'approvals', label: 'Approvals', permission: 'approvals.decide' },
  { id: 'actions', label: 'Action catalog', permission: 'read' },
  { id: 'domains', label: 'Domains', permission: 'read' },
  { id: 'sso', label: 'Single sign-on', permission: 'read' },
  { id: 'directory', label: 'Directory sync', permission: 'scim.manage' },
  { id: 'audit', label: 'Audit log', permission: 'audit.read' },
  { id: 'settings', label: 'Settings', permission: 'read' },
] as const satisfies readonly { id: string; label: string; permission: Permission }[];

export type SectionId = (typeof SECTIONS)[number]['id'];

export function isSectionId(value: unknown): value is SectionId {
  return SECTIONS.some((section) => section.id === value);
}

/** The console URL of an organization's section; `extra` pre-fills forms (an approval request's action and target). */
export function consoleHref(organizationId: string, section?: SectionId, extra: Record<string, string> = {}): string {
  const query = new URLSearchParams({ organization: organizationId, ...(section ? { section } : {}), ...extra });
  return `/console?${query.toString()}`;
}
