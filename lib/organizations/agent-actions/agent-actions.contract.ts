import { z } from 'zod';
import { BEARER_TAG, inOrganization, ORGANIZATION_BEARER, ORGANIZATION_STEP_UP, organizationParams, SESSION, TAG } from '../terms';
import { collectionContract, resourceContract } from '@/lib/contract/wire';

export const ACTION_NAME = /^[a-z][a-z0-9_.-]{0,63}$/;
export const RISK_LEVELS = ['low', 'medium', 'high'] as const;

const action = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  input_schema: z.record(z.string(), z.unknown()),
  risk_level: z.enum(RISK_LEVELS),
  created_at: z.string(),
});

/**
 * A JSON Schema 2020-12 object. That it compiles in strict mode and stays within 16 KiB is checked by
 * the service (agent-actions.ts), which needs a JSON Schema compiler no browser should load.
 */
const inputSchema = z.record(z.string(), z.unknown());

export const listOrganizationAgentActions = collectionContract({
  id: 'listOrganizationAgentActions',
  method: 'GET',
  path: '/api/organizations/{id}/agent/actions',
  tag: TAG,
  summary: "The organization's agent action catalog, newest first (execution is gated and off by default)",
  auth: SESSION,
  tenant: inOrganization('read'),
  origin: 'if-present',
  idempotency: 'none',
  params: organizationParams,
  collection: 'actions',
  item: action,
  errorStatuses: [404],
});

export const registerOrganizationAgentAction = resourceContract({
  id: 'registerOrganizationAgentAction',
  method: 'POST',
  path: '/api/organizations/{id}/agent/actions',
  tag: TAG,
  summary: 'Register a schema-validated agent action (high risk: gated by approvals.required_for)',
  auth: ORGANIZATION_STEP_UP,
  tenant: inOrganization('actions.manage'),
  origin: 'required',
  idempotency: 'optional',
  params: organizationParams,
  body: z.strictObject({
    name: z.string().regex(ACTION_NAME, 'A lowercase letter, then up to 63 lowercase letters, digits, "_", "." or "-".'),
    description: z.string().trim().min(1).max(1000),
    input_schema: inputSchema,
    risk_level: z.enum(RISK_LEVELS),
    approval_id: z.string().max(100).optional(),
  }),
  successStatus: 201,
  errorStatuses: [404, 409],
  response: action,
});

export const listBearerOrganizationAgentActions = collectionContract({
  id: 'listBearerOrganizationAgentActions',
  method: 'GET',
  path: '/api/v1/organizations/{id}/agent/actions',
  tag: BEARER_TAG,
  summary: "The bound organization's agent action catalog (execution is gated and off by default)",
  auth: ORGANIZATION_BEARER('identity.organization.read'),
  tenant: inOrganization('read'),
  origin: 'none',
  idempotency: 'none',
  params: organizationParams,
  collection: 'actions',
  item: action,
  errorStatuses: [404],
});
