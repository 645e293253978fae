/**
 * Applications (spec, Developer browser and bearer contracts; API.md): the browser manages the owner's
 * applications with a session and a recent step-up (certification status: the session alone); the
 * bearer surface lists them and registers new ones without ever returning a client secret.
 */
import { z } from 'zod';
import { DEVELOPER_BEARER, DEVELOPER_BEARER_TAG, DEVELOPER_STEP_UP, DEVELOPER_TAG } from '@/lib/contract/developer-terms';
import { isAllowedRedirectUri, REDIRECT_URI_RULE } from '@/lib/contract/redirect-uris';
import { SCOPE_TABLE } from '@/lib/contract/scope-table';
import { displayName } from '@/lib/contract/text';
import { collectionContract, resourceContract } from '@/lib/contract/wire';

/** ApplicationView on the wire (the API's responses and the MCP list_applications tool). */
export const APPLICATION_SCHEMA = z.object({
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
});

const APPLICATIONS = '/api/developer/applications';
const ONE = `${APPLICATIONS}/{application_id}`;

const SCOPE_NAMES = SCOPE_TABLE.map((s) => s.scope) as [string, ...string[]];
const distinct = (list: readonly string[]) => new Set(list).size === list.length;

const redirectUris = z
  .array(z.string().max(2000).refine(isAllowedRedirectUri, REDIRECT_URI_RULE))
  .min(1)
  .max(10)
  .refine(distinct, 'Each redirect URI may appear once.');
const scopes = z.array(z.enum(SCOPE_NAMES)).min(1).max(SCOPE_NAMES.length).refine(distinct, 'Each scope may appear once.');
const newApplication = z.strictObject({
  name: displayName,
  client_type: z.enum(['confidential', 'public']),
  redirect_uris: redirectUris,
  scopes,
  grant_types: z
    .array(z.enum(['authorization_code', 'refresh_token']))
    .min(1)
    .max(2)
    .refine(distinct, 'Each grant type may appear once.')
    .optional(),
});
// Path ids are checked by the service: a malformed id is as unknown as another owner's (404).
const params = z.object({ application_id: z.string().min(1).max(100) });

const application = APPLICATION_SCHEMA;

/** Registrations are counted per account, whichever credential (session or bearer) the account uses. */
const registrationLimit = {
  bucket: 'application_register',
  subject: ({ actor }: { actor: { userId: string } }) => `user:${actor.userId}`,
} as const;

export const listApplications = collectionContract({
  id: 'listApplications',
  method: 'GET',
  path: APPLICATIONS,
  tag: DEVELOPER_TAG,
  summary: "The caller's applications (never a secret), newest first",
  auth: DEVELOPER_STEP_UP,
  origin: 'if-present',
  idempotency: 'none',
  collection: 'applications',
  item: application,
});

export const createApplication = resourceContract({
  id: 'createApplication',
  method: 'POST',
  path: APPLICATIONS,
  tag: DEVELOPER_TAG,
  summary:
    'Register an application (an OAuth client of this service); a confidential client’s `client_secret` is in this answer only (the service keeps its SHA-256). Scopes that need review stay pending (certification)',
  auth: DEVELOPER_STEP_UP,
  origin: 'required',
  subjectRateLimit: registrationLimit,
  // A retry with the same Idempotency-Key gets the same one-time secret back: the stored answer is sealed.
  idempotency: 'optional',
  body: newApplication,
  successStatus: 201,
  emits: ['identity.application.created'],
  response: application.extend({ client_secret: z.string().optional() }),
});

export const updateApplication = resourceContract({
  id: 'updateApplication',
  method: 'PATCH',
  path: ONE,
  tag: DEVELOPER_TAG,
  summary: 'Change the name, the exact redirect URIs or the scopes (certification runs again); the provider applies it on the next request',
  auth: DEVELOPER_STEP_UP,
  origin: 'required',
  idempotency: 'optional',
  params,
  body: z.strictObject({ name: displayName.optional(), redirect_uris: redirectUris.optional(), scopes: scopes.optional() }),
  successStatus: 200,
  errorStatuses: [404, 409],
  emits: ['identity.application.updated'],
  response: application,
});

export const disableApplication = resourceContract({
  id: 'disableApplication',
  method: 'DELETE',
  path: ONE,
  tag: DEVELOPER_TAG,
  summary:
    'Disable an application: the provider refuses it from now on, and its grants, codes, access and refresh tokens are revoked (409 when already disabled)',
  auth: DEVELOPER_STEP_UP,
  origin: 'required',
  idempotency: 'optional',
  params,
  successStatus: 200,
  errorStatuses: [404, 409],
  emits: ['identity.application.disabled'],
  response: z.object({ id: z.string(), status: z.literal('disabled') }),
});

export const rotateApplicationSecret = resourceContract({
  id: 'rotateApplicationSecret',
  method: 'POST',
  path: `${ONE}/rotate-secret`,
  tag: DEVELOPER_TAG,
  summary: 'Issue a new client secret (in this answer only); the old one stops working at once. 409 for a public client',
  auth: DEVELOPER_STEP_UP,
  origin: 'required',
  // A retry with the same Idempotency-Key gets the same one-time secret back: the stored answer is sealed.
  idempotency: 'optional',
  params,
  successStatus: 200,
  errorStatuses: [404, 409],
  emits: ['identity.application.secret_rotated'],
  response: z.object({ id: z.string(), client_id: z.string(), client_secret: z.string() }),
});

export const getApplicationCertification = resourceContract({
  id: 'getApplicationCertification',
  method: 'GET',
  path: `${ONE}/certification/status`,
  tag: DEVELOPER_TAG,
  summary: 'Certification status: the approved scopes (the only ones the provider lets the application request), the pending ones and the checks',
  auth: { kind: 'session' },
  origin: 'if-present',
  idempotency: 'none',
  params,
  successStatus: 200,
  errorStatuses: [404],
  response: z.object({
    application_id: z.string(),
    status: z.enum(['certified', 'pending_review']),
    approved_scopes: z.array(z.string()),
    pending_scopes: z.array(z.string()),
    checks: z.array(z.object({ name: z.string(), passed: z.boolean(), detail: z.string().optional() })),
  }),
});

export const listBearerApplications = collectionContract({
  id: 'listBearerApplications',
  method: 'GET',
  path: '/api/v1/developer/applications',
  tag: DEVELOPER_BEARER_TAG,
  summary: "The credential owner's applications (never a secret); the envelope names the credential kind and its scopes",
  auth: DEVELOPER_BEARER('identity.developer.read'),
  origin: 'none',
  idempotency: 'none',
  collection: 'applications',
  item: application,
});

export const createBearerApplication = resourceContract({
  id: 'createBearerApplication',
  method: 'POST',
  path: '/api/v1/developer/applications',
  tag: DEVELOPER_BEARER_TAG,
  summary:
    'Register an application with a scoped credential. Never returns a client secret: a confidential application is created without one (the provider refuses it) until its owner issues a secret in the portal (rotate-secret); a public client works at once',
  auth: DEVELOPER_BEARER('identity.applications.manage'),
  origin: 'none',
  subjectRateLimit: registrationLimit,
  idempotency: 'required',
  body: newApplication,
  successStatus: 201,
  emits: ['identity.application.created'],
  response: application,
});
