import { z } from 'zod';
import { readProfile } from '@/lib/accounts';
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
  output: {
    id: z.string(),
    display_name: z.string().nullable(),
    locale: z.string().nullable(),
    timezone: z.string().nullable(),
    email: z.string().optional(),
    email_verified: z.boolean().optional(),
    scopes: z.array(z.string()),
  },
  run: async (actor) => ({ ...(await readProfile(actor)), scopes: actor.scopes }),
});
