import { z } from 'zod';
import { actorOfKind } from '@/lib/contract/actor';
import { defineCollection, defineOperation, type AnyOperation } from '@/lib/contract/operation';
import { tenantOf } from '@/lib/contract/tenant';
import { ACTION_NAME, inputSchemaProblem, listOrganizationAgentActions, registerAgentAction, RISK_LEVELS } from './agent-actions';
import { BEARER_TAG, inOrganization, ORGANIZATION_BEARER, ORGANIZATION_STEP_UP, organizationParams, SESSION, TAG } from './terms';

const action = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  input_schema: z.record(z.string(), z.unknown()),
  risk_level: z.enum(RISK_LEVELS),
  created_at: z.string(),
});

/** A JSON Schema 2020-12 object that compiles in strict mode, at most 16 KiB serialized. */
const inputSchema = z.record(z.string(), z.unknown()).superRefine((schema, ctx) => {
  const problem = inputSchemaProblem(schema);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

export const agentActionOperations: AnyOperation[] = [
  defineCollection({
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
    handler: ({ actor, tenant, page }) => listOrganizationAgentActions(tenantOf(tenant), page, actor),
  }),
  defineOperation({
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
    handler: ({ actor, tenant, body, now, requestId }) => registerAgentAction(tenantOf(tenant), actorOfKind(actor, 'session'), body, now, requestId),
  }),
  defineCollection({
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
    handler: ({ actor, tenant, page }) => listOrganizationAgentActions(tenantOf(tenant), page, actor),
  }),
];
