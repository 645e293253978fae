import { z } from 'zod';
import { defineOperation, type AnyOperation } from '@/lib/contract/operation';
import { CAPABILITIES } from './capabilities';
import { authStatus, capabilityDetail, capabilityMatrix, health, readiness, rehearsal } from './status.service';

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

const healthOp = defineOperation({
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
  handler: health,
});

const authStatusOp = defineOperation({
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
  handler: authStatus,
});

const capabilityDetailSchema = z.object({
  capability: z.string(),
  title: z.string(),
  status: capabilityStatus,
  reason: z.string(),
  contract: z.record(z.string(), z.unknown()),
  checked_at: z.string(),
});

const SUMMARIES: Record<string, string> = {
  passkeys: 'Passkey and WebAuthn contract',
  password: 'Password authentication metadata',
  email_otp: 'E-mail code sign-in capability',
  verification: 'Six-digit verification contract',
  interaction: 'Interaction capability contract',
  enrollment: 'Enrollment readiness',
  email: 'Transactional e-mail status',
  session: 'Session security status',
  recovery: 'Recovery capability status',
  authorization: 'Organization and action authorization status',
  federation: 'Provider-level federation status (no credentials, tenant identifiers or assertion data)',
};

const capabilityOps = CAPABILITIES.filter((c) => c.endpoint).map((c) =>
  defineOperation({
    ...publicGet,
    id: `get${c.id.replace(/(^|_)(\w)/g, (_m, _s, ch: string) => ch.toUpperCase())}Capabilities`,
    path: c.endpoint!,
    summary: SUMMARIES[c.id] ?? c.title,
    response: capabilityDetailSchema,
    handler: () => capabilityDetail(c.id),
  }),
);

const matrixOp = defineOperation({
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
  handler: capabilityMatrix,
});

const readinessOp = defineOperation({
  ...publicGet,
  id: 'getReadiness',
  path: '/api/v1/readiness',
  summary: 'Readiness matrix (the deployment gate)',
  response: z.object({
    status: z.enum(['ready', 'degraded', 'not_ready']),
    checked_at: z.string(),
    checks: z.array(z.object({ id: z.string(), state: checkState, detail: z.string() })),
  }),
  handler: readiness,
});

const rehearsalOp = defineOperation({
  ...publicGet,
  id: 'getRehearsal',
  path: '/api/v1/rehearsal',
  summary: 'Fail-closed launch rehearsal state',
  response: z.object({
    decision: z.enum(['go', 'no_go']),
    checked_at: z.string(),
    gates: z.array(z.object({ id: z.string(), passed: z.boolean(), detail: z.string() })),
  }),
  handler: rehearsal,
});

export const statusOperations: AnyOperation[] = [healthOp, authStatusOp, ...capabilityOps, matrixOp, readinessOp, rehearsalOp];
