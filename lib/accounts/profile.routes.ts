import { z } from 'zod';
import { actorOfKind } from '@/lib/contract/actor';
import { defineOperation, type AnyOperation } from '@/lib/contract/operation';
import { oneLineText } from '@/lib/contract/text';
import { PROFILE_FIELDS, readProfile, updateProfile } from './profile';

const TAG = 'Identity profile and privacy';

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

export const profileOperations: AnyOperation[] = [
  defineOperation({
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
    handler: ({ actor }) => readProfile(actorOfKind(actor, 'bearer')),
  }),
  defineOperation({
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
    handler: ({ actor, body, now, requestId }) => updateProfile(actorOfKind(actor, 'bearer'), body, now, requestId),
  }),
  defineOperation({
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
    handler: ({ actor, body, now, requestId }) => updateProfile(actorOfKind(actor, 'session'), body, now, requestId),
  }),
];
