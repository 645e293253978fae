/** Organizations (tenants) and memberships. */
export { allMemberships, membershipView } from './memberships';
export { resolveTenant } from './tenant';
export { POLICY_KEYS } from '@/lib/contract/policies';
