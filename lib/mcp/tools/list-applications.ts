import { z } from 'zod';
import { APPLICATION_SCHEMA, listOwnApplications } from '@/lib/developer';
import { pageAnswer, pageInput, pageOutput, pageRequest } from '../paging';
import { defineTool } from '../tool';

const NAME = 'list_applications';

/** The applications the person registered in the developer portal (never a client secret), newest first. */
export const listApplications = defineTool({
  name: NAME,
  title: 'List my applications',
  description:
    'The OAuth applications you registered in the developer portal, newest first: client id, type, redirect URIs, requested and approved scopes, grant types, status. Never a client secret.',
  scope: 'identity.developer.read',
  readOnly: true,
  input: pageInput,
  output: {
    items: z.array(APPLICATION_SCHEMA),
    ...pageOutput,
  },
  run: async (actor, args) => pageAnswer(NAME, await listOwnApplications(actor, pageRequest(NAME, args))),
});
