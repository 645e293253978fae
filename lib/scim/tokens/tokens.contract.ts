/**
 * SCIM tokens (ARCHITECTURE.md, SCIM tokens): organization admins with `scim.manage` issue and revoke
 * them with a recent step-up; the token (`scim_` prefix) is in the issuing answer only, stored hashed,
 * bound to the organization, and the only authorization context of /scim/v2 (spec).
 */
import { z } from 'zod';
import { collectionContract, resourceContract } from '@/lib/contract/wire';
import { displayName, inOrganization, nestedParams, ORGANIZATION_STEP_UP, organizationParams, SESSION, TAG } from '@/lib/contract/organization-terms';

const scimToken = z.object({
  id: z.string(),
  name: z.string(),
  /** `scim_` and the first characters, to recognise the token a directory holds. */
  prefix: z.string(),
  status: z.enum(['active', 'revoked']),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
});

const manage = { tag: TAG, tenant: inOrganization('scim.manage'), extension: true } as const;

export const listScimTokens = collectionContract({
  ...manage,
  auth: SESSION,
  origin: 'if-present',
  idempotency: 'none',
  id: 'listScimTokens',
  method: 'GET',
  path: '/api/organizations/{id}/scim/tokens',
  summary: "The organization's SCIM tokens, with their last use (never the token)",
  params: organizationParams,
  collection: 'scim_tokens',
  item: scimToken,
  errorStatuses: [404],
});

export const issueScimToken = resourceContract({
  ...manage,
  auth: ORGANIZATION_STEP_UP,
  origin: 'required',
  // A retry with the same Idempotency-Key gets the same one-time token back: the stored answer is sealed.
  idempotency: 'optional',
  id: 'issueScimToken',
  method: 'POST',
  path: '/api/organizations/{id}/scim/tokens',
  summary: 'Issue a SCIM token for a directory; `token` is in this answer only (the service keeps its SHA-256)',
  params: organizationParams,
  body: z.strictObject({ name: displayName }),
  successStatus: 201,
  errorStatuses: [404, 409],
  response: z.object({ id: z.string(), name: z.string(), token: z.string(), created_at: z.string() }),
});

export const revokeScimToken = resourceContract({
  ...manage,
  auth: ORGANIZATION_STEP_UP,
  origin: 'required',
  idempotency: 'optional',
  id: 'revokeScimToken',
  method: 'DELETE',
  path: '/api/organizations/{id}/scim/tokens/{token_id}',
  summary: 'Revoke a SCIM token: it authenticates nothing from this moment',
  params: nestedParams('token_id'),
  successStatus: 200,
  errorStatuses: [404],
  response: z.object({ revoked: z.literal(true) }),
});
