/**
 * The auth and tenant declarations organization operations share (spec, Organization administration):
 * reads need a session and membership; mutations a recent "passkey step-up" (a passkey when the
 * account has one, a password otherwise) and the permission. The pipeline enforces all of it.
 */
import { z } from 'zod';
import { uuid } from './ids';
import type { BearerTerm, SessionTerm } from './wire';
import type { Permission } from './permissions';
import type { TenantRequirement } from './tenant';

export const TAG = 'Organization administration';
export const BEARER_TAG = 'Bearer organization reads';

export const SESSION: SessionTerm = { kind: 'session' };
export const ORGANIZATION_STEP_UP: SessionTerm = { kind: 'session', stepUp: { methods: ['passkey', 'password'], passkeyWhenEnrolled: true } };
export const ORGANIZATION_BEARER = (scope: 'identity.organization.read' | 'identity.organization.members.read'): BearerTerm => ({
  kind: 'bearer',
  accepts: ['oauth', 'api_key'],
  scopes: [scope],
});

/** Acting inside the organization named by the path's `id`. */
export const inOrganization = (permission: Permission, options: { ownerOnly?: boolean } = {}): TenantRequirement => ({ param: 'id', permission, ...options });

/** Path ids are UUIDs; anything else is simply not found (the pipeline answers 404 before parsing). */
export const organizationParams = z.object({ id: uuid() });
export const nestedParams = <K extends string>(name: K) => organizationParams.extend({ [name]: uuid() } as Record<K, z.ZodUUID>);

/** Display names of organizations, groups and roles: the one text rule for names (lib/contract/text.ts). */
export { displayName } from './text';

/** Where a gated change names the approved request it uses (`?approval_id=`). */
export const approvalQuery = z.strictObject({ approval_id: z.string().max(100).optional() });
