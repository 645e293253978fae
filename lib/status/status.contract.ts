import { z } from 'zod';
import { resourceContract } from '@/lib/contract/wire';

const capabilityStatus = z.enum(['live', 'gated', 'degraded', 'manual', 'planned']);
const checkState = z.enum(['pass', 'degraded', 'fail']);

const publicGet = {
  method: 'GET',
  auth: { kind: 'public' },
  origin: 'if-present',
  idempotency: 'none',
  successStatus: 200,
  tag: 'Runtime and status',
} as const;

export const getHealth = resourceContract({
  ...publicGet,
  id: 'getHealth',
  path: '/api/health',
  summary: 'Safe release and runtime status',
  response: z.object({
    status: z.literal('ok'),
    service: z.string(),
    release: z.string(),
    api_version: z.string(),
    uptime_seconds: z.number().int(),
    time: z.string(),
  }),
});

export const getAuthStatus = resourceContract({
  ...publicGet,
  id: 'getAuthStatus',
  path: '/api/auth/status',
  summary: 'Authentication capability status',
  response: z.object({
    status: z.enum(['available', 'unavailable']),
    sign_in_methods: z.array(z.string()),
    capabilities: z.record(z.string(), capabilityStatus),
    checked_at: z.string(),
  }),
});

const capabilityDetailSchema = z.object({
  capability: z.string(),
  title: z.string(),
  status: capabilityStatus,
  reason: z.string(),
  contract: z.record(z.string(), z.unknown()),
  checked_at: z.string(),
});

/** The spec's per-capability endpoint under /api/auth: one capability of the matrix (capabilities.ts), in detail. */
const capabilityEndpoint = <Id extends string>(id: Id, path: string, summary: string) =>
  resourceContract({ ...publicGet, id, path, summary, response: capabilityDetailSchema });

export const getEmailCapabilities = capabilityEndpoint('getEmailCapabilities', '/api/auth/email/capabilities', 'Transactional e-mail status');
export const getEnrollmentCapabilities = capabilityEndpoint('getEnrollmentCapabilities', '/api/auth/enrollment/capabilities', 'Enrollment readiness');
export const getVerificationCapabilities = capabilityEndpoint(
  'getVerificationCapabilities',
  '/api/auth/verification/capabilities',
  'Six-digit verification contract',
);
export const getPasskeysCapabilities = capabilityEndpoint('getPasskeysCapabilities', '/api/auth/passkeys/capabilities', 'Passkey and WebAuthn contract');
export const getPasswordCapabilities = capabilityEndpoint('getPasswordCapabilities', '/api/auth/password/capabilities', 'Password authentication metadata');
export const getEmailOtpCapabilities = capabilityEndpoint('getEmailOtpCapabilities', '/api/auth/email-otp/capabilities', 'E-mail code sign-in capability');
export const getSessionCapabilities = capabilityEndpoint('getSessionCapabilities', '/api/auth/session/capabilities', 'Session security status');
export const getRecoveryCapabilities = capabilityEndpoint('getRecoveryCapabilities', '/api/auth/recovery/capabilities', 'Recovery capability status');
export const getInteractionCapabilities = capabilityEndpoint(
  'getInteractionCapabilities',
  '/api/auth/interaction/capabilities',
  'Interaction capability contract',
);
export const getAuthorizationCapabilities = capabilityEndpoint(
  'getAuthorizationCapabilities',
  '/api/auth/authorization/capabilities',
  'Organization and action authorization status',
);
export const getFederationCapabilities = capabilityEndpoint(
  'getFederationCapabilities',
  '/api/auth/federation/capabilities',
  'Provider-level federation status (no credentials, tenant identifiers or assertion data)',
);

export const getCapabilities = resourceContract({
  ...publicGet,
  id: 'getCapabilities',
  path: '/api/v1/capabilities',
  summary: 'Capability matrix (grants no access; no secrets, tenant identifiers or session material)',
  response: z.object({
    api_version: z.string(),
    checked_at: z.string(),
    summary: z.record(capabilityStatus, z.number().int()),
    capabilities: z.array(z.object({ id: z.string(), title: z.string(), status: capabilityStatus, reason: z.string() })),
  }),
});

export const getReadiness = resourceContract({
  ...publicGet,
  id: 'getReadiness',
  path: '/api/v1/readiness',
  summary: 'Readiness matrix (the deployment gate)',
  response: z.object({
    status: z.enum(['ready', 'degraded', 'not_ready']),
    checked_at: z.string(),
    checks: z.array(z.object({ id: z.string(), state: checkState, detail: z.string() })),
  }),
});

export const getRehearsal = resourceContract({
  ...publicGet,
  id: 'getRehearsal',
  path: '/api/v1/rehearsal',
  summary: 'Fail-closed launch rehearsal state',
  response: z.object({
    decision: z.enum(['go', 'no_go']),
    checked_at: z.string(),
    gates: z.array(z.object({ id: z.string(), passed: z.boolean(), detail: z.string() })),
  }),
});
