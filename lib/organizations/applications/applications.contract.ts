import { z } from 'zod';
import { inOrganization, nestedParams, ORGANIZATION_STEP_UP, organizationParams, SESSION, TAG } from '../terms';
import { collectionContract, resourceContract } from '@/lib/contract/wire';

const assignment = z.object({
  application_id: z.string(),
  client_id: z.string(),
  name: z.string(),
  status: z.enum(['active', 'disabled']),
  created_at: z.string(),
});

const mutation = { tag: TAG, auth: ORGANIZATION_STEP_UP, tenant: inOrganization('applications.manage'), origin: 'required', idempotency: 'optional' } as const;

export const listOrganizationApplications = collectionContract({
  id: 'listOrganizationApplications',
  method: 'GET',
  path: '/api/organizations/{id}/applications',
  tag: TAG,
  summary: "The organization's application assignments (active and disabled), newest first",
  auth: SESSION,
  tenant: inOrganization('read'),
  origin: 'if-present',
  idempotency: 'none',
  params: organizationParams,
  collection: 'applications',
  item: assignment,
  errorStatuses: [404],
});

export const assignOrganizationApplication = resourceContract({
  ...mutation,
  id: 'assignOrganizationApplication',
  method: 'POST',
  path: '/api/organizations/{id}/applications',
  summary:
    'Assign an enabled application by its client_id (409 when already active; a disabled assignment becomes active again). With the applications.assigned_only policy on, members may authorize only assigned applications',
  params: organizationParams,
  body: z.strictObject({ client_id: z.string().min(1).max(200) }),
  successStatus: 201,
  errorStatuses: [404, 409],
  emits: ['identity.organization.application.assigned'],
  response: assignment,
});

export const unassignOrganizationApplication = resourceContract({
  ...mutation,
  id: 'unassignOrganizationApplication',
  method: 'DELETE',
  path: '/api/organizations/{id}/applications/{application_id}',
  summary: "Disable an assignment; the organization's bound grants of that application (and their tokens) end with it",
  params: nestedParams('application_id'),
  successStatus: 200,
  errorStatuses: [404, 409],
  emits: ['identity.organization.application.unassigned'],
  response: z.object({ application_id: z.string(), status: z.literal('disabled') }),
});
