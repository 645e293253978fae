import { z } from 'zod';
import { actorOfKind } from '@/lib/contract/actor';
import { defineOperation, type AnyOperation } from '@/lib/contract/operation';
import { readProfile, updateProfile } from './profile';

const TAG = 'Identity profile and privacy';

const profile = z.object({
  id: z.string(),
  display_name: z.string().nullable(),
  locale: z.string().nullable(),
  timezone: z.string().nullable(),
  email: z.string().optional(),
  email_verified: z.boolean().optional(),
  updated_at: z.string(),
});

const locale = z
  .string()
  .max(35)
  .refine((value) => {
    try {
      return Intl.getCanonicalLocales(value).length === 1;
    } catch {
      return false;
    }
  }, 'must be a BCP 47 language tag, e.g. en-GB');

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
  }, 'must be an IANA time zone, e.g. Europe/Paris');

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
    // Strict: a read-only or unknown field (email, id, ...) is a 400, never silently ignored.
    body: z.strictObject({
      display_name: z.string().trim().min(1).max(100).nullable().optional(),
      locale: locale.nullable().optional(),
      timezone: timezone.nullable().optional(),
    }),
    successStatus: 200,
    errorStatuses: [503],
    emits: ['identity.user.updated'],
    response: profile,
    handler: ({ actor, body, now, requestId }) => updateProfile(actorOfKind(actor, 'bearer'), body, now, requestId),
  }),
];
