/**
 * The catalogue of wire contracts, keyed by operation id: what the hosted pages' typed client is built
 * from. It imports nothing but contract files (dependency-cruiser), so browser code may import it
 * without pulling server code in. The registry (registry.ts) binds a handler to each of these, and a
 * test checks that every registered operation is exactly its catalogued contract plus a handler.
 */
import { contractsOf } from '@/lib/contract/wire';
// organizations
import * as agentActions from '@/lib/organizations/agent-actions/agent-actions.contract';
import * as applications from '@/lib/organizations/applications/applications.contract';
import * as approvals from '@/lib/organizations/approvals/approvals.contract';
import * as auditEvents from '@/lib/organizations/audit/audit-events.contract';
import * as bearer from '@/lib/organizations/bearer/bearer.contract';
import * as delegations from '@/lib/organizations/delegations/delegations.contract';
import * as groups from '@/lib/organizations/groups/groups.contract';
import * as invitationEnrollment from '@/lib/organizations/invitations/invitation-enrollment.contract';
import * as invitations from '@/lib/organizations/invitations/invitations.contract';
import * as members from '@/lib/organizations/members/members.contract';
import * as memberships from '@/lib/organizations/members/memberships.contract';
import * as organizationLifecycle from '@/lib/organizations/lifecycle/organization-lifecycle.contract';
import * as organizations from '@/lib/organizations/lifecycle/organizations.contract';
import * as policies from '@/lib/organizations/policies/policies.contract';
import * as roles from '@/lib/organizations/roles/roles.contract';
// Domains and federation
import * as domains from '@/lib/federation/domains/domains.contract';
import * as connections from '@/lib/federation/connections/connections.contract';
import * as federationSignIn from '@/lib/federation/signin/signin.contract';
import * as scimTokens from '@/lib/scim/tokens/tokens.contract';
import * as scim from '@/lib/scim/scim.contract';
// Runtime and status
import * as status from '@/lib/status/status.contract';
import * as docs from '@/lib/docs/docs.contract';
import * as openapi from '@/lib/http/openapi.contract';
// Accounts
import * as enrollment from '@/lib/accounts/enrollment.contract';
import * as signin from '@/lib/accounts/signin.contract';
import * as sessions from '@/lib/accounts/sessions.contract';
import * as recovery from '@/lib/accounts/recovery.contract';
import * as passkeys from '@/lib/accounts/passkeys.contract';
import * as password from '@/lib/accounts/password.contract';
import * as profile from '@/lib/accounts/profile.contract';
// Privacy
import * as privacy from '@/lib/privacy/privacy.contract';
import * as deletion from '@/lib/privacy/deletion/deletion.contract';
// OAuth 2.0 / OIDC
import * as oidc from '@/lib/oidc/oidc.contract';
import * as consents from '@/lib/oidc/consents.contract';
// Developer
import * as apiKeys from '@/lib/developer/api-keys.contract';
import * as apiResources from '@/lib/developer/api-resources.contract';
import * as developerApplications from '@/lib/developer/applications.contract';
import * as developerAudit from '@/lib/developer/developer-audit.contract';
// Webhooks
import * as webhooks from '@/lib/webhooks/webhooks.contract';
// MCP
import * as mcp from '@/lib/mcp/mcp.contract';

export const CONTRACTS = {
  // organizations
  ...contractsOf(agentActions),
  ...contractsOf(applications),
  ...contractsOf(approvals),
  ...contractsOf(auditEvents),
  ...contractsOf(bearer),
  ...contractsOf(delegations),
  ...contractsOf(groups),
  ...contractsOf(invitationEnrollment),
  ...contractsOf(invitations),
  ...contractsOf(members),
  ...contractsOf(memberships),
  ...contractsOf(organizationLifecycle),
  ...contractsOf(organizations),
  ...contractsOf(policies),
  ...contractsOf(roles),
  // Domains and federation
  ...contractsOf(domains),
  ...contractsOf(connections),
  ...contractsOf(federationSignIn),
  ...contractsOf(scimTokens),
  ...contractsOf(scim),
  // Runtime and status
  ...contractsOf(status),
  ...contractsOf(docs),
  ...contractsOf(openapi),
  // Accounts
  ...contractsOf(enrollment),
  ...contractsOf(signin),
  ...contractsOf(sessions),
  ...contractsOf(recovery),
  ...contractsOf(passkeys),
  ...contractsOf(password),
  ...contractsOf(profile),
  // Privacy
  ...contractsOf(privacy),
  ...contractsOf(deletion),
  // OAuth 2.0 / OIDC
  ...contractsOf(oidc),
  ...contractsOf(consents),
  // Developer
  ...contractsOf(apiKeys),
  ...contractsOf(developerApplications),
  ...contractsOf(apiResources),
  ...contractsOf(developerAudit),
  // Webhooks
  ...contractsOf(webhooks),
  // MCP
  ...contractsOf(mcp),
};

export type Contracts = typeof CONTRACTS;
