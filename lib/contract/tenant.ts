/**
 * Tenant authorization, declared on the operation and enforced by the pipeline (lib/http/tenant.ts):
 * the organization is loaded once, a non-member and an unknown id get the same 404, a member without
 * the permission gets 403 `forbidden`, the organization's session policies are checked, and the
 * handler receives the typed tenant actor. No handler re-checks membership.
 */
import type { BuiltInRole, Permission } from './permissions';

export type SignInMethod = 'passkey' | 'password' | 'email_code' | 'federation';

/** Sensitive changes an organization policy may put behind an approval (`approvals.required_for`). */
export const APPROVAL_ACTIONS = ['policies.delete', 'delegated_admins.create', 'agent_actions.register_high_risk', 'members.remove'] as const;
export type ApprovalAction = (typeof APPROVAL_ACTIONS)[number];

/**
 * The organization's policies as the pipeline and the services apply them; `null` means the service
 * default applies (the policy is not set).
 */
export interface TenantPolicies {
  sessionMaxAgeSeconds: number | null;
  sessionIdleTimeoutSeconds: number | null;
  stepUpMaxAgeSeconds: number | null;
  signinAllowedMethods: SignInMethod[] | null;
  sessionBinding: boolean;
  approvalsRequiredFor: ApprovalAction[];
}

export interface TenantRequirement {
  /**
   * Where the organization id comes from: the path parameter `id`, or (bearer reads that name no
   * organization) the credential's organization binding.
   */
  param: 'id' | 'binding';
  permission: Permission;
  /** Only an owner may do this (e.g. create delegated-admin grants), whatever else they hold. */
  ownerOnly?: boolean;
}

/** Who acts inside the organization, as the pipeline resolved it for this request. */
export interface TenantActor {
  organizationId: string;
  membershipId: string;
  userId: string;
  role: BuiltInRole | 'custom';
  customRoleId: string | null;
  /** Role (built-in or custom) plus every live delegated grant. */
  permissions: ReadonlySet<Permission>;
  /**
   * What the role alone holds, without delegated grants: the ceiling for what this member may hand out
   * (roles they create or assign). A delegate cannot turn a lent, expiring permission into a lasting one.
   */
  rolePermissions: ReadonlySet<Permission>;
  policies: TenantPolicies;
}
