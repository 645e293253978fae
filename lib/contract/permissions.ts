/**
 * The one permission catalogue of organizations (tenants), and what the built-in roles hold. Operations
 * declare the permission they need (`tenant.permission`); the pipeline resolves the caller's effective
 * permissions (role, custom role, live delegated grants) and refuses with 403 `forbidden` without it.
 */
export const PERMISSIONS = [
  'read',
  'settings.manage',
  'members.manage',
  'invitations.manage',
  'groups.manage',
  'roles.manage',
  'policies.manage',
  'delegations.manage',
  'audit.read',
  'approvals.decide',
  'actions.manage',
  'applications.manage',
  'domains.manage',
  'federation.manage',
  'scim.manage',
] as const;

export type Permission = (typeof PERMISSIONS)[number];

export const BUILT_IN_ROLES = ['owner', 'admin', 'member'] as const;
export type BuiltInRole = (typeof BUILT_IN_ROLES)[number];

/** What each permission lets a holder do, for the docs, the roles list and the console's matrix. */
export const PERMISSION_DESCRIPTIONS: Record<Permission, string> = {
  read: 'See the organization, its members, groups, roles, policies and action catalog',
  'settings.manage': 'Rename the organization and change its slug',
  'members.manage': "Change members' roles and status, remove members",
  'invitations.manage': 'Invite people, resend and revoke invitations',
  'groups.manage': 'Create, rename and delete groups; add and remove group members',
  'roles.manage': 'Create, change and delete custom roles',
  'policies.manage': 'Set and remove organization policies',
  'delegations.manage': 'See and revoke delegated-admin grants (only an owner creates them)',
  'audit.read': "Read the organization's audit log",
  'approvals.decide': 'Request, list, approve and reject approvals',
  'actions.manage': 'Register actions in the agent action catalog',
  'applications.manage': 'Assign applications to the organization',
  'domains.manage': 'Register and verify domains',
  'federation.manage': 'Manage federation connections',
  'scim.manage': 'Issue and revoke SCIM tokens',
};

/**
 * Owners and admins hold every permission; what sets owners apart are owner-only acts (creating
 * delegated grants, making or unmaking owners), declared as `ownerOnly` on the operation or checked
 * where the owner role itself is the subject. Members read the organization and its audit log (the
 * spec's "membership" routes).
 */
export const BUILT_IN_ROLE_PERMISSIONS: Record<BuiltInRole, readonly Permission[]> = {
  owner: PERMISSIONS,
  admin: PERMISSIONS,
  member: ['read', 'audit.read'],
};

/** Delegated grants hand out subsets of admin permissions; `read` comes with every membership anyway. */
export const DELEGABLE_PERMISSIONS: readonly Permission[] = PERMISSIONS.filter((p) => p !== 'read' && p !== 'delegations.manage');

export function isPermission(value: string): value is Permission {
  return (PERMISSIONS as readonly string[]).includes(value);
}

export function isBuiltInRole(value: string): value is BuiltInRole {
  return (BUILT_IN_ROLES as readonly string[]).includes(value);
}
