/**
 * The catalogue of wire contracts, keyed by operation id: what the hosted pages' typed client is built
 * from. It imports nothing but contract files (dependency-cruiser), so browser code may import it
 * without pulling server code in. The registry (registry.ts) binds a handler to each of these, and a
 * test checks that every registered operation is exactly its catalogued contract plus a handler.
 */
import { contractsOf } from '@/lib/contract/wire';
// organizations
import * as agentActions from '@/lib/organizations/agent-actions.contract';
import * as applications from '@/lib/organizations/applications.contract';
import * as approvals from '@/lib/organizations/approvals.contract';
import * as auditEvents from '@/lib/organizations/audit-events.contract';
import * as bearer from '@/lib/organizations/bearer.contract';
import * as delegations from '@/lib/organizations/delegations.contract';
import * as groups from '@/lib/organizations/groups.contract';
import * as invitations from '@/lib/organizations/invitations.contract';
import * as members from '@/lib/organizations/members.contract';
import * as memberships from '@/lib/organizations/memberships.contract';
import * as organizations from '@/lib/organizations/organizations.contract';
import * as policies from '@/lib/organizations/policies.contract';
import * as roles from '@/lib/organizations/roles.contract';

export const CONTRACTS = {
  // organizations
  ...contractsOf(agentActions),
  ...contractsOf(applications),
  ...contractsOf(approvals),
  ...contractsOf(auditEvents),
  ...contractsOf(bearer),
  ...contractsOf(delegations),
  ...contractsOf(groups),
  ...contractsOf(invitations),
  ...contractsOf(members),
  ...contractsOf(memberships),
  ...contractsOf(organizations),
  ...contractsOf(policies),
  ...contractsOf(roles),
};

export type Contracts = typeof CONTRACTS;
