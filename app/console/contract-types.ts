/**
 * The organization API's shapes as the console reads them, each derived from its operation's contract
 * (lib/http/contracts.ts), so a page can never disagree with what the service answers.
 */
import type { CallOutput, ItemOf } from '@/lib/contract/client';
import type { Contracts } from '@/lib/http/contracts';

type ListOf<C, F extends keyof CallOutput<C>> = CallOutput<C>[F] extends readonly (infer T)[] ? T : never;

export type MyOrganization = ItemOf<Contracts['listSessionOrganizations']>;
export type Organization = CallOutput<Contracts['updateOrganization']>;
export type OrganizationDetail = CallOutput<Contracts['getOrganization']>;
export type Member = ItemOf<Contracts['listOrganizationMembers']>;
export type MemberStatus = Member['status'];
export type Invitation = ItemOf<Contracts['listOrganizationInvitations']>;
export type Group = ItemOf<Contracts['listOrganizationGroups']>;
export type GroupMember = ItemOf<Contracts['listOrganizationGroupMembers']>;
export type Role = ListOf<Contracts['listOrganizationRoles'], 'roles'>;
export type Delegation = ItemOf<Contracts['listOrganizationDelegatedAdmins']>;
export type Policy = ListOf<Contracts['listOrganizationPolicies'], 'policies'>;
export type Approval = ItemOf<Contracts['listOrganizationApprovals']>;
export type ApprovalStatus = Approval['status'];
export type AgentAction = ItemOf<Contracts['listOrganizationAgentActions']>;
export type RiskLevel = AgentAction['risk_level'];
export type AuditEvent = ItemOf<Contracts['listOrganizationAuditEvents']>;
export type Domain = ItemOf<Contracts['listOrganizationDomains']>;
export type FederationConnection = ItemOf<Contracts['listFederationConnections']>;
/** An actor or subject of an audit event; `name` is what people call it, read now (null when gone). */
export type AuditParty = AuditEvent['actor'];
export type ScimToken = ItemOf<Contracts['listScimTokens']>;
