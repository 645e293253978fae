/**
 * The public operation registry: every operation of every context, in one list. The route bindings,
 * the OpenAPI document, the auth matrix and the contract tests are all derived from it.
 */
import type { AnyOperation } from '@/lib/contract/operation';
import { statusOperations } from '@/lib/status/status.routes';
import { docsOperations } from '@/lib/docs/docs.routes';
import { sessionOperations } from '@/lib/accounts/sessions.routes';
import { enrollmentOperations } from '@/lib/accounts/enrollment.routes';
import { passkeyOperations } from '@/lib/accounts/passkeys.routes';
import { passwordOperations } from '@/lib/accounts/password.routes';
import { profileOperations } from '@/lib/accounts/profile.routes';
import { recoveryOperations } from '@/lib/accounts/recovery.routes';
import { signInOperations } from '@/lib/accounts/signin.routes';
import { consentOperations } from '@/lib/oidc/consents.routes';
import { oidcOperations } from '@/lib/oidc/oidc.routes';
import { invitationOperations } from '@/lib/organizations/invitations/invitations.routes';
import { memberOperations } from '@/lib/organizations/members/members.routes';
import { bearerOrganizationOperations } from '@/lib/organizations/bearer/bearer.routes';
import { membershipOperations } from '@/lib/organizations/members/memberships.routes';
import { organizationOperations } from '@/lib/organizations/lifecycle/organizations.routes';
import { organizationLifecycleOperations } from '@/lib/organizations/lifecycle/organization-lifecycle.routes';
import { invitationEnrollmentOperations } from '@/lib/organizations/invitations/invitation-enrollment.routes';
import { delegationOperations } from '@/lib/organizations/delegations/delegations.routes';
import { groupOperations } from '@/lib/organizations/groups/groups.routes';
import { roleOperations } from '@/lib/organizations/roles/roles.routes';
import { agentActionOperations } from '@/lib/organizations/agent-actions/agent-actions.routes';
import { approvalOperations } from '@/lib/organizations/approvals/approvals.routes';
import { auditEventOperations } from '@/lib/organizations/audit/audit-events.routes';
import { domainOperations } from '@/lib/federation/domains/domains.routes';
import { connectionOperations } from '@/lib/federation/connections/connections.routes';
import { federationSignInOperations } from '@/lib/federation/signin/signin.routes';
import { policyOperations } from '@/lib/organizations/policies/policies.routes';
import { apiKeyOperations } from '@/lib/developer/api-keys.routes';
import { apiResourceOperations } from '@/lib/developer/api-resources.routes';
import { applicationOperations } from '@/lib/developer/applications.routes';
import { developerAuditOperations } from '@/lib/developer/developer-audit.routes';
import { organizationApplicationOperations } from '@/lib/organizations/applications/applications.routes';
import { webhookOperations } from '@/lib/webhooks/webhooks.routes';
import { mcpOperations } from '@/lib/mcp/mcp.routes';
import { privacyOperations } from '@/lib/privacy/privacy.routes';
import { scimTokenOperations } from '@/lib/scim/tokens/tokens.routes';
import { scimOperations } from '@/lib/scim/scim.routes';
import { openapiOperations } from './openapi.routes';

export const OPERATIONS: readonly AnyOperation[] = [
  ...statusOperations,
  ...docsOperations,
  ...enrollmentOperations,
  ...signInOperations,
  ...sessionOperations,
  ...recoveryOperations,
  ...passkeyOperations,
  ...passwordOperations,
  ...profileOperations,
  ...privacyOperations,
  ...membershipOperations,
  ...organizationOperations,
  ...organizationLifecycleOperations,
  ...memberOperations,
  ...invitationOperations,
  ...invitationEnrollmentOperations,
  ...groupOperations,
  ...roleOperations,
  ...delegationOperations,
  ...bearerOrganizationOperations,
  ...policyOperations,
  ...domainOperations,
  ...connectionOperations,
  ...federationSignInOperations,
  ...scimTokenOperations,
  ...scimOperations,
  ...approvalOperations,
  ...agentActionOperations,
  ...auditEventOperations,
  ...oidcOperations,
  ...consentOperations,
  ...apiKeyOperations,
  ...applicationOperations,
  ...apiResourceOperations,
  ...developerAuditOperations,
  ...organizationApplicationOperations,
  ...webhookOperations,
  ...mcpOperations,
  ...openapiOperations(() => OPERATIONS),
];

export function operationsAt(path: string): AnyOperation[] {
  return OPERATIONS.filter((op) => op.path === path);
}

/** The Allow header for a path: the methods its operations declare. */
export function allowedMethods(declared: readonly AnyOperation[]): string {
  return [...new Set(declared.map((op) => op.method))].join(', ');
}
