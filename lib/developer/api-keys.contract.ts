/**
 * API keys (spec, Developer browser and bearer contracts): the browser manages the owner's keys with a
 * session and a recent step-up; the bearer read lists them for an API key or an OAuth token with
 * identity.developer.read.
 */
import { z } from 'zod';
import { DEVELOPER_BEARER, DEVELOPER_BEARER_TAG, DEVELOPER_STEP_UP, DEVELOPER_TAG } from '@/lib/contract/developer-terms';
import { instant } from '@/lib/contract/instant';
import { API_KEY_SCOPES } from '@/lib/contract/scopes';
import { displayName } from '@/lib/contract/text';
import { collectionContract, resourceContract } from '@/lib/contract/wire';

const apiKey = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string(),
  scopes: z.array(z.string()),
  created_at: z.string(),
  expires_at: z.string().nullable(),
  last_used_at: z.string().nullable(),
  status: z.enum(['active', 'expired', 'revoked']),
  /** The person (in the portal), or an application they authorized (client and consent): its key ends with that consent. */
  created_by: z.object({ kind: z.enum(['person', 'application']), client_id: z.string().nullable(), grant_id: z.string().nullable() }),
});

/** The answer to a creation (the portal's and the MCP create_api_key tool's): the key is in it and nowhere else. */
export const CREATED_API_KEY_SCHEMA = z.object({
  id: z.string(),
  api_key: z.string(),
  name: z.string(),
  scopes: z.array(z.string()),
  created_at: z.string(),
  expires_at: z.string().nullable(),
});

export const listApiKeys = collectionContract({
  id: 'listApiKeys',
  method: 'GET',
  path: '/api/developer/api-keys',
  tag: DEVELOPER_TAG,
  summary: "The caller's API keys (metadata only: the key itself is shown once, at creation), newest first",
  auth: DEVELOPER_STEP_UP,
  origin: 'if-present',
  idempotency: 'none',
  collection: 'api_keys',
  item: apiKey,
});

export const createApiKey = resourceContract({
  id: 'createApiKey',
  method: 'POST',
  path: '/api/developer/api-keys',
  tag: DEVELOPER_TAG,
  summary: 'Create a scoped API key; `api_key` is in this answer only (the service keeps its SHA-256)',
  auth: DEVELOPER_STEP_UP,
  origin: 'required',
  // A retry with the same Idempotency-Key gets the same one-time secret back: the stored answer is sealed.
  idempotency: 'optional',
  body: z.strictObject({
    name: displayName,
    scopes: z.array(z.enum(API_KEY_SCOPES)).min(1).max(API_KEY_SCOPES.length),
    expires_at: instant.optional(),
  }),
  successStatus: 201,
  errorStatuses: [409],
  emits: ['identity.api_key.created'],
  response: CREATED_API_KEY_SCHEMA,
});

export const revokeApiKey = resourceContract({
  id: 'revokeApiKey',
  method: 'POST',
  path: '/api/developer/api-keys/revoke',
  tag: DEVELOPER_TAG,
  summary: 'Revoke one of your API keys: it stops authenticating on the very next request',
  auth: DEVELOPER_STEP_UP,
  origin: 'required',
  idempotency: 'optional',
  body: z.strictObject({ api_key_id: z.string().min(1).max(100) }),
  successStatus: 200,
  errorStatuses: [404, 409],
  emits: ['identity.api_key.revoked'],
  response: z.object({ revoked: z.literal(true) }),
});

export const listBearerApiKeys = collectionContract({
  id: 'listBearerApiKeys',
  method: 'GET',
  path: '/api/v1/developer/api-keys',
  tag: DEVELOPER_BEARER_TAG,
  summary: "The credential owner's API keys (metadata only); the envelope names the credential kind and its scopes",
  auth: DEVELOPER_BEARER('identity.developer.read'),
  origin: 'none',
  idempotency: 'none',
  collection: 'api_keys',
  item: apiKey,
});
