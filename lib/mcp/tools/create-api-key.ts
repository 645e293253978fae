import { z } from 'zod';
import { instantText } from '@/lib/contract/instant';
import { AGENT_API_KEY_MAX_DAYS } from '@/lib/contract/scopes';
import { API_KEY_SCOPES, createApiKey, CREATED_API_KEY_SCHEMA } from '@/lib/developer';
import { displayName } from '@/lib/contract/text';
import { defineTool } from '../tool';

/**
 * The portal's API-key creation (same service, same cap, same audit action: the actor is the person,
 * through their OAuth token), within the terms the person consented to: the key is bound to this
 * application's consent (revoked with it), expires after at most AGENT_API_KEY_MAX_DAYS, and carries
 * only scopes the application could be granted itself (lib/developer, agent-api-keys.ts). The key is
 * in this result only, like the portal's one-time display.
 */
export const createApiKeyTool = defineTool({
  name: 'create_api_key',
  title: 'Create an API key',
  description: `Create an API key (idk_...) for the developer API (/api/v1/developer/*) with the given scopes (any of ${API_KEY_SCOPES.join(', ')} that this application could be granted itself). The key is shown in this result only: store it now. It expires after ${AGENT_API_KEY_MAX_DAYS} days (or earlier if asked), and stops working when the person disconnects this application or revokes the key in the developer portal.`,
  scope: 'identity.api_keys.create',
  readOnly: false,
  input: {
    name: displayName.describe('A name that says where the key is used'),
    scopes: z.array(z.enum(API_KEY_SCOPES)).min(1).max(API_KEY_SCOPES.length),
    expires_at: instantText.optional().describe(`Optional expiry (ISO 8601, at most ${AGENT_API_KEY_MAX_DAYS} days ahead, the default)`),
  },
  output: CREATED_API_KEY_SCHEMA.shape,
  run: (actor, args, { now, requestId }) =>
    createApiKey(actor, { name: args.name, scopes: args.scopes, ...(args.expires_at ? { expires_at: new Date(args.expires_at) } : {}) }, now, requestId),
});
