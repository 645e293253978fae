import { z } from 'zod';
import { listOwnApplications } from '@/lib/developer';
import { pageAnswer, pageInput, pageOutput, pageRequest } from '../paging';
import { defineTool } from '../tool';

const NAME = 'list_applications';

/** The applications the person registered in the developer portal (never a client secret), newest first. */
export const listApplications = defineTool({
  name: NAME,
  title: 'List my applications',
  description: 'The OAuth applications you registered in the developer portal, newest first: client id, type, redirect URIs, requested and approved scopes, grant types, status. Never a client secret.',
  scope: 'identity.developer.read',
  readOnly: true,
  input: pageInput,
  output: {
    items: z.array(
      z.object({
        id: z.string(),
        client_id: z.string(),
        name: z.string(),
        client_type: z.enum(['confidential', 'public']),
        redirect_uris: z.array(z.string()),
        scopes: z.array(z.string()),
        approved_scopes: z.array(z.string()),
        grant_types: z.array(z.string()),
        status: z.enum(['enabled', 'disabled']),
        created_at: z.string(),
        updated_at: z.string(),
      }),
    ),
    ...pageOutput,
  },
  run: async (actor, args) => pageAnswer(NAME, await listOwnApplications(actor, pageRequest(NAME, args))),
});
