import { z } from 'zod';
import { oneLineText } from '@/lib/contract/text';
import { resourceContract } from '@/lib/contract/wire';

const TAG = 'Identity profile and privacy';

/** The profile on the wire (GET /api/v1/me and the MCP whoami tool): e-mail fields only when seen. */
export const PROFILE_FIELDS = {
  id: z.string(),
  display_name: z.string().nullable(),
  locale: z.string().nullable(),
  timezone: z.string().nullable(),
  email: z.string().optional(),
  email_verified: z.boolean().optional(),
  updated_at: z.string(),
};

const profile = z.object(PROFILE_FIELDS);

const locale = z
  .string()
  .max(35)
  .refine((value) => {
    try {
      return Intl.getCanonicalLocales(value).length === 1;
    } catch {
      return false;
    }
  }, 'Enter a language tag such as en-GB.');

const timezone = z
  .string()
  .max(64)
  .refine((value) => {
    try {
      new Intl.DateTimeFormat('en', { timeZone: value });
      return true;
    } catch {
      return false;
    }
  }, 'Choose a time zone such as Europe/Paris.');

/**
 * What the owner may change, for both operations below (one schema, so they cannot drift). Strict: a
 * read-only or unknown field (email, id, ...) is a 400, never silently ignored. null clears a field.
 * The messages are shown on the account page as they are, next to the field.
 */
const profileChanges = z.strictObject({
  display_name: oneLineText(100, { emptyMessage: 'Enter a name, or leave the field empty to remove it.', tooLongMessage: 'Use at most 100 characters.' })
    .nullable()
    .optional(),
  locale: locale.nullable().optional(),
  timezone: timezone.nullable().optional(),
});

export const getMe = resourceContract({
  id: 'getMe',
  method: 'GET',
  path: '/api/v1/me',
  tag: TAG,
  summary: 'The profile of the token owner (e-mail only with identity.email.read)',
  auth: { kind: 'bearer', accepts: ['oauth'], scopes: ['identity.profile.read', 'identity.email.read'], scopeMode: 'any' },
  origin: 'none',
  idempotency: 'none',
  successStatus: 200,
  errorStatuses: [503],
  response: profile,
});

export const updateMe = resourceContract({
  id: 'updateMe',
  method: 'PATCH',
  path: '/api/v1/me',
  tag: TAG,
  summary: 'Change display_name, locale or timezone (nothing else); emits identity.user.updated',
  auth: { kind: 'bearer', accepts: ['oauth'], scopes: ['identity.profile.write'] },
  origin: 'none',
  idempotency: 'required',
  body: profileChanges,
  successStatus: 200,
  errorStatuses: [503],
  emits: ['identity.user.updated'],
  response: profile,
});

export const updateOwnProfile = resourceContract({
  id: 'updateOwnProfile',
  method: 'PATCH',
  path: '/api/auth/profile',
  tag: 'Account',
  summary: 'Change your display_name, locale or timezone from the account page (the session form of PATCH /api/v1/me); emits identity.user.updated',
  extension: true,
  auth: { kind: 'session' },
  origin: 'required',
  idempotency: 'optional',
  body: profileChanges,
  successStatus: 200,
  errorStatuses: [503],
  emits: ['identity.user.updated'],
  response: profile,
});
