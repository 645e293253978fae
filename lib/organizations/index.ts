/**
 * Organizations (tenants) and memberships. One folder per topic (lifecycle, members, roles, groups,
 * invitations, approvals, delegations, policies, applications, agent-actions, audit, bearer), each with
 * its contract, routes, service and repository; the transition tables (transitions/) and what every
 * topic shares (tenant resolution, the change record, the end of a membership) stay at this level.
 */
export { allMemberships, membershipView } from './members/memberships';
export { resolveTenant } from './tenant';
export { POLICY_KEYS } from '@/lib/contract/policy-keys';
export { recordChange, type OrganizationChange } from './change-record';
export { joinOrganization, membershipStatusOf } from './members/join';
export { decide, passGuards, transitionFor, unlistedPairs, type Guard, type TransitionTable } from './transitions/table';
export { directoryMembership, moveDirectoryMembership, type DirectoryMove } from './members/directory';
export {
  addDirectoryGroupMember,
  createDirectoryGroup,
  deleteDirectoryGroup,
  lockDirectoryGroup,
  removeDirectoryGroupMember,
  renameDirectoryGroup,
  setDirectoryGroupMembers,
} from './groups/directory-groups';
export type { GroupRow } from './groups/groups.repo';
export { erasureBlockers, eraseOrganizationRecordsOf } from './erasure';
export { delegationsHeldBy } from './delegations/held-delegations';
