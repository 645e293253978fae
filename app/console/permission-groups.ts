/**
 * The permission catalogue (lib/contract/permissions.ts) in groups an administrator scans: fifteen
 * boxes in one list are hard to read, four labelled lists are not. Every permission is in exactly one
 * group (the record's type makes a new permission fail to compile until it is placed).
 */
import { PERMISSIONS, type Permission } from '@/lib/contract/permissions';

const GROUP_OF: Record<Permission, GroupLabel> = {
  read: 'Organization',
  'settings.manage': 'Organization',
  'domains.manage': 'Organization',
  'members.manage': 'People and access',
  'invitations.manage': 'People and access',
  'groups.manage': 'People and access',
  'roles.manage': 'People and access',
  'delegations.manage': 'People and access',
  'policies.manage': 'Security and oversight',
  'approvals.decide': 'Security and oversight',
  'audit.read': 'Security and oversight',
  'actions.manage': 'Applications and integrations',
  'applications.manage': 'Applications and integrations',
  'federation.manage': 'Applications and integrations',
  'scim.manage': 'Applications and integrations',
};

const GROUP_LABELS = ['Organization', 'People and access', 'Security and oversight', 'Applications and integrations'] as const;
type GroupLabel = (typeof GROUP_LABELS)[number];

/** The groups in display order, each with its permissions in catalogue order. */
export const PERMISSION_GROUPS: { label: GroupLabel; permissions: Permission[] }[] = GROUP_LABELS.map((label) => ({
  label,
  permissions: PERMISSIONS.filter((permission) => GROUP_OF[permission] === label),
}));
