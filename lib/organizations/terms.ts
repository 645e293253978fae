/**
 * The auth and tenant declarations organization operations share (spec, Organization administration):
 * reads need a session and membership; mutations a recent "passkey step-up" (a passkey when the
 * account has one, a password otherwise) and the permission. The pipeline enforces all of it.
 */
import { z } from 'zod';
import type { AuthTerm } from '@/lib/contract/operation';
import type { Permission } from '@/lib/contract/permissions';
import type { TenantRequirement } from '@/lib/contract/tenant';

export const TAG = 'Organization administration';
export const BEARER_TAG = 'Bearer organization reads';

export const SESSION: AuthTerm = { kind: 'session' };
export const ORGANIZATION_STEP_UP: AuthTerm = { kind: 'session', stepUp: { methods: ['passkey', 'password'], passkeyWhenEnrolled: true } };
export const ORGANIZATION_BEARER = (scope: 'identity.organization.read' | 'identity.organization.members.read'): AuthTerm => ({
  kind: 'bearer',
  accepts: ['oauth', 'api_key'],
  scopes: [scope],
});

/** Acting inside the organization named by the path's `id`. */
export const inOrganization = (permission: Permission, options: { ownerOnly?: boolean } = {}): TenantRequirement => ({ param: 'id', permission, ...options });

/** Path ids are UUIDs; anything else is simply not found (the pipeline answers 404 before parsing). */
export const organizationParams = z.object({ id: z.uuid() });
export const nestedParams = <K extends string>(name: K) => organizationParams.extend({ [name]: z.uuid() } as Record<K, z.ZodUUID>);

/**
 * Line breaks, tabs and other controls (C0, C1, U+2028/9) and the bidirectional marks and overrides:
 * a name is one line of text that means what it shows. Organization and role names travel in
 * invitation mails, where a line break would let anyone who creates an organization write their own
 * paragraphs into a message from this service. Joiners (ZWJ, ZWNJ) stay: scripts and emoji need them.
 */
const NOT_ONE_LINE = /[\p{Cc}\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

/** Display names of organizations, groups and roles: one line, trimmed, 1-100 characters. */
export const displayName = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .refine((name) => !NOT_ONE_LINE.test(name), 'A name is one line without control or text-direction characters.');
