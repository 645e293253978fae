/**
 * Every audit action and the data fields it may carry: an allow-list, reviewed here, once. A field
 * not listed for its action is a programming error (recordAudit throws, so tests catch it), never
 * silently dropped. Secrets, codes, tokens, network addresses and user agents are never listed (a
 * test guards the names). Subjects (user, passkey, session ...) travel in the row's subject columns.
 */
export const AUDIT_ACTIONS = {
  'account.created': ['method'],
  'enrollment.started': [],
  // proof: `invitation` when an invitation link proved the address (no code was mailed); absent for a code.
  'enrollment.email_verification': ['proof'],
  'signin.password': [],
  'signin.passkey': ['passkey_id'],
  'signin.email_code.started': [],
  'signin.email_code': [],
  'step_up.password': [],
  'step_up.passkey': ['passkey_id'],
  'session.revoked': ['reason', 'user'],
  'password.changed': [],
  'passkey.added': [],
  'passkey.removed': [],
  'profile.updated': ['fields'],
  'recovery.started': [],
  'recovery.verification': [],
  'recovery.completed': ['method'],
  'oauth.consent': ['decision'],
  'oauth.consent.revoked': [],
  'organization.created': ['slug'],
  // Updates name their changed `fields`, and for fields that are not secret the new value and the old (`<field>_from`).
  'organization.updated': ['fields', 'name', 'name_from', 'slug', 'slug_from'],
  // What was gone with it, in counts (members, pending invitations, OAuth grants bound to it).
  'organization.deleted': ['name', 'slug', 'members', 'invitations', 'grants_revoked'],
  'member.updated': ['fields', 'role', 'status', 'role_from', 'status_from'],
  'member.left': [],
  'member.revoked': [],
  'invitation.created': ['role'],
  'invitation.resent': [],
  'invitation.revoked': [],
  'invitation.accepted': ['membership_id'],
  'delegation.created': ['membership_id', 'permissions', 'expires_at'],
  'delegation.revoked': [],
  'policy.set': ['policy'],
  'policy.deleted': ['policy'],
  'group.created': [],
  'group.renamed': [],
  'group.deleted': [],
  'group.member_added': ['membership_id'],
  'group.member_removed': ['membership_id'],
  'role.created': ['permissions'],
  'role.updated': ['fields', 'permissions'],
  'role.deleted': [],
  'agent_action.registered': ['name', 'risk_level'],
  'approval.requested': ['approval_action', 'target'],
  'approval.decided': ['decision'],
  'approval.cancelled': [],
  'approval.consumed': ['approval_action', 'target'],
  // An application's key names its client and consent (grant); null for the person's own.
  'api_key.created': ['scopes', 'client_id', 'grant_id'],
  // reason: owner (the portal) or consent_revoked (the keys of a withdrawn consent).
  'api_key.revoked': ['scopes', 'reason'],
  'application.created': ['client_type', 'scopes'],
  'application.updated': ['fields'],
  'application.secret_rotated': [],
  'application.disabled': ['grants_revoked'],
  // API resources: the identifier is the public resource indicator; permissions are scope names.
  'api_resource.created': ['identifier', 'permissions'],
  'api_resource.updated': ['fields'],
  'api_resource.deleted': [],
  'api_resource.machine_access_set': ['client_id', 'permissions'],
  'organization.application.assigned': ['client_id'],
  'organization.application.unassigned': ['client_id', 'grants_revoked'],
  // Webhooks: the endpoint's host only (a URL's path or query may carry a receiver's token).
  'webhook.created': ['events', 'host'],
  'webhook.secret_rotated': [],
  'webhook.disabled': ['reason'],
  'webhook.test_sent': ['delivery_id'],
  'webhook.delivery_retried': ['webhook_id', 'event_type'],
  'domain.registered': ['domain'],
  'domain.verified': ['domain'],
  'domain.deleted': ['domain'],
  'federation.connection.registered': ['connection_id', 'protocol'],
  'federation.connection.activated': ['connection_id'],
  'federation.connection.disabled': ['connection_id'],
  'federation.connection.deleted': ['connection_id'],
  // A federated sign-in: the connection (its admin-chosen id) and whether it made the account or membership.
  'signin.federation': ['connection_id', 'account_created', 'membership'],
  'privacy.deletion_requested': [],
  'privacy.deletion_cancelled': [],
  // The operator who completed it (staff, not the person); the subject is the request.
  'privacy.deletion_completed': ['operator'],
  'scim.token.created': [],
  'scim.token.revoked': [],
  // A directory's provisioning (actor: its SCIM token). account: `created` or `linked` (an existing account).
  'scim.user.provisioned': ['account'],
  // The SCIM attributes that changed, by name (never their values: the directory's data is personal).
  'scim.user.updated': ['fields'],
  'scim.user.deactivated': [],
  'scim.user.reactivated': [],
  'scim.user.deprovisioned': [],
} as const satisfies Record<string, readonly string[]>;

export type AuditAction = keyof typeof AUDIT_ACTIONS;
export type AuditValue = string | number | boolean | null;
type FieldsOf<A extends AuditAction> = (typeof AUDIT_ACTIONS)[A][number];

/** The data an action may carry: its allowed fields, or nothing at all for an action without any. */
export type AuditData<A extends string> = A extends AuditAction
  ? [FieldsOf<A>] extends [never]
    ? undefined
    : Partial<Record<FieldsOf<A>, AuditValue>>
  : never;

/**
 * A literal action must be in the table (a typo is a compile error). An action only known as `string`
 * at compile time is checked at run time, and may carry no data.
 */
export type KnownAction<A extends string> = string extends A ? string : A extends AuditAction ? A : never;

export function isAuditAction(action: string): action is AuditAction {
  return Object.hasOwn(AUDIT_ACTIONS, action);
}
