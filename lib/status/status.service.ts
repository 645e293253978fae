import { BUILT_IN_ROLES, PERMISSIONS } from '@/lib/contract/permissions';
import { APPROVAL_ACTIONS } from '@/lib/contract/tenant';
import { POLICY_KEYS } from '@/lib/organizations';
import { getConfig } from '@/lib/config';
import { isDraining } from '@/lib/platform';
import { classifyAll, classifyOne } from './capabilities';
import { getEvidence } from './evidence';
import { overallReadiness, readinessChecks, rehearsalGates } from './readiness';
import { summarizeCapabilities } from './summary';

const startedAt = Date.now();

export async function health() {
  const config = getConfig();
  return {
    status: 'ok' as const,
    service: 'identity-service',
    release: config.release,
    api_version: 'v1',
    uptime_seconds: Math.floor((Date.now() - startedAt) / 1000),
    time: new Date().toISOString(),
  };
}

export async function capabilityMatrix() {
  const evidence = await getEvidence();
  const capabilities = classifyAll(evidence);
  return { api_version: 'v1', checked_at: evidence.checkedAt.toISOString(), summary: summarizeCapabilities(capabilities), capabilities };
}

/** Facts of each capability's contract, derived from configuration (never secrets or hosts). */
function contractOf(id: string): Record<string, unknown> {
  const config = getConfig();
  const ttl = config.ttl;
  switch (id) {
    case 'passkeys':
      return {
        rp_id: config.rpId,
        origin: config.origin,
        user_verification: 'required',
        resident_key: 'required',
        challenge_ttl_seconds: ttl.webauthnChallenge,
      };
    case 'password':
      return { algorithm: 'PBKDF2-HMAC-SHA256', iterations: config.passwordIterations, min_length: 8, max_length: 128, normalization: 'NFC' };
    case 'email_otp':
    case 'verification':
      return { code_digits: 6, code_ttl_seconds: ttl.verificationCode, max_attempts: 5 };
    case 'interaction':
      return { sign_in_page: '/sign-in', consent_page: '/consent/{interaction_id}', return_to: 'relative paths of this service only' };
    case 'enrollment':
      return { token_ttl_seconds: ttl.enrollmentToken, token_header: 'X-Enrollment-Token', email_verification_required: true };
    case 'email':
      return { transport: config.mail.smtpUrl ? 'smtp' : 'dev_mailbox' };
    case 'session':
      return {
        idle_ttl_seconds: ttl.sessionIdle,
        absolute_ttl_seconds: ttl.sessionAbsolute,
        step_up_ttl_seconds: ttl.stepUp,
        csrf_header: 'X-CSRF-Token',
        cookie: { http_only: true, same_site: 'lax', secure: config.secureCookies },
      };
    case 'recovery':
      return { token_ttl_seconds: ttl.recoveryToken, token_header: 'X-Recovery-Token' };
    case 'authorization':
      return {
        built_in_roles: BUILT_IN_ROLES,
        permissions: PERMISSIONS,
        policies: POLICY_KEYS,
        approval_actions: APPROVAL_ACTIONS,
        step_up: 'passkey when the account has one, password otherwise',
        action_execution: 'disabled',
      };
    case 'federation':
      return {
        protocols: config.samlEnabled ? ['oidc', 'saml'] : ['oidc'],
        saml_execution: config.samlEnabled ? 'enabled' : 'gated',
        transaction_ttl_seconds: ttl.federationTransaction,
        id_token_algorithms: ['RS256'],
        pkce: 'S256',
        domain_verification: { record_type: 'TXT', name: '_identity-challenge.<domain>', value_prefix: 'identity-domain-verification=' },
      };
    default:
      return {};
  }
}

export async function capabilityDetail(id: string) {
  const evidence = await getEvidence();
  const answer = classifyOne(id, evidence);
  return {
    capability: answer.id,
    title: answer.title,
    status: answer.status,
    reason: answer.reason,
    contract: contractOf(id),
    checked_at: evidence.checkedAt.toISOString(),
  };
}

const AUTH_CAPABILITIES = [
  'enrollment',
  'verification',
  'passkeys',
  'password',
  'email_otp',
  'email',
  'session',
  'recovery',
  'interaction',
  'authorization',
  'federation',
];

export async function authStatus() {
  const evidence = await getEvidence();
  const capabilities = Object.fromEntries(AUTH_CAPABILITIES.map((id) => [id, classifyOne(id, evidence).status]));
  const signInMethods = ['passkeys', 'password', 'email_otp'].filter((id) => capabilities[id] === 'live' || capabilities[id] === 'degraded');
  return {
    status: signInMethods.length > 0 ? ('available' as const) : ('unavailable' as const),
    sign_in_methods: signInMethods,
    capabilities,
    checked_at: evidence.checkedAt.toISOString(),
  };
}

export async function readiness() {
  const evidence = await getEvidence();
  const checks = readinessChecks(evidence, isDraining());
  return { status: overallReadiness(checks), checked_at: evidence.checkedAt.toISOString(), checks };
}

export async function rehearsal() {
  const evidence = await getEvidence();
  const gates = rehearsalGates(evidence);
  return { decision: gates.every((g) => g.passed) ? ('go' as const) : ('no_go' as const), checked_at: evidence.checkedAt.toISOString(), gates };
}
