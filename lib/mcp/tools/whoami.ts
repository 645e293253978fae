import { z } from 'zod';
import { PROFILE_FIELDS, readProfile } from '@/lib/accounts';
import { defineTool } from '../tool';

/** The person the token acts for, as GET /api/v1/me shows them (e-mail only with identity.email.read). */
export const whoami = defineTool({
  name: 'whoami',
  title: 'Who am I',
  description:
    'The account this connection acts for: user id, display name, language and time zone, the e-mail address when the token carries identity.email.read, and the scopes the token was granted.',
  scope: 'identity.profile.read',
  readOnly: true,
  input: {},
  output: { ...PROFILE_FIELDS, scopes: z.array(z.string()) },
  run: async (actor) => ({ ...(await readProfile(actor)), scopes: actor.scopes }),
});
