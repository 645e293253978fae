/**
 * The capability matrix. Each capability is classified from configuration and live evidence:
 * live (built and working), gated (built, switched off by configuration), degraded (working in a
 * reduced mode), manual (handled by people, e.g. privacy review), planned (not built yet).
 * When a capability lands, its classification here changes, and the answer with it.
 */
import type { Evidence } from './evidence';

export type CapabilityStatus = 'live' | 'gated' | 'degraded' | 'manual' | 'planned';

export interface CapabilityAnswer {
  status: CapabilityStatus;
  reason: string;
}

interface CapabilityDefinition {
  id: string;
  title: string;
  classify: (e: Evidence) => CapabilityAnswer;
}

const live = (reason: string) => (): CapabilityAnswer => ({ status: 'live', reason });

/**
 * Offered, and needing only the database. Reasons name what is offered, then the evidence
 * ("<what>: available; the database answers."): the colon keeps the sentence right whether `what`
 * is one thing or a list of several.
 */
const databaseBacked =
  (what: string) =>
  (e: Evidence): CapabilityAnswer =>
    e.database.state === 'pass'
      ? { status: 'live', reason: `${what}: available; the database answers.` }
      : { status: 'degraded', reason: 'The database is unavailable.' };

/** Offered, and depending on mail reaching people: degraded while codes go to the dev mailbox. */
const mailBacked =
  (what: string) =>
  (e: Evidence): CapabilityAnswer => {
    if (e.database.state !== 'pass') return { status: 'degraded', reason: 'The database is unavailable.' };
    if (e.mail.transport === 'smtp_ready') return { status: 'live', reason: `${what}: available; mail is delivered over SMTP.` };
    return {
      status: 'degraded',
      reason: `${what}: available, but mail ${e.mail.transport === 'dev_mailbox' ? 'goes to the dev mailbox' : 'cannot be delivered'}.`,
    };
  };

function emailAnswer(e: Evidence): CapabilityAnswer {
  switch (e.mail.transport) {
    case 'smtp_ready':
      return { status: 'live', reason: 'SMTP transport answered its handshake.' };
    case 'dev_mailbox':
      return { status: 'degraded', reason: 'No SMTP_URL: mail is written to the local dev mailbox.' };
    default:
      return { status: 'degraded', reason: 'The SMTP transport did not answer its handshake.' };
  }
}

export const CAPABILITIES: readonly CapabilityDefinition[] = [
  { id: 'status', title: 'Status and readiness surface', classify: live('Capability, readiness and rehearsal endpoints answer from live evidence.') },
  { id: 'api_versioning', title: 'API versioning', classify: live('Version v1 is current; unsupported versions are refused before authentication.') },
  { id: 'openapi', title: 'OpenAPI contract', classify: live('Generated from the operation registry at /api/openapi.json.') },
  {
    id: 'rate_limiting',
    title: 'Rate limiting',
    classify: (e) =>
      e.database.state === 'pass'
        ? { status: 'live', reason: 'Buckets are stored in the shared database.' }
        : { status: 'degraded', reason: 'The database holding the buckets is unavailable.' },
  },
  { id: 'idempotency', title: 'Idempotent mutations', classify: live('Idempotency-Key records are stored in the shared database.') },
  {
    id: 'help',
    title: 'Help questions',
    classify: (e) =>
      e.helpProvider.configured
        ? { status: 'live', reason: 'A help provider is configured; answers are advisory.' }
        : { status: 'degraded', reason: 'No help provider: advisory answers come from the local documentation.' },
  },
  { id: 'email', title: 'Transactional e-mail', classify: emailAnswer },
  { id: 'enrollment', title: 'Verified-email enrollment', classify: mailBacked('Enrollment') },
  { id: 'verification', title: 'Six-digit e-mail verification', classify: mailBacked('E-mail verification') },
  { id: 'passkeys', title: 'Passkeys (WebAuthn)', classify: databaseBacked('Passkey enrollment, sign-in and step-up') },
  { id: 'password', title: 'Password sign-in', classify: databaseBacked('Password sign-in with lockout') },
  { id: 'email_otp', title: 'E-mail code sign-in', classify: mailBacked('E-mail code sign-in') },
  { id: 'session', title: 'Browser sessions and step-up', classify: databaseBacked('Session management and step-up') },
  { id: 'recovery', title: 'Account recovery', classify: mailBacked('Account recovery') },
  { id: 'interaction', title: 'Hosted sign-in and consent interaction', classify: databaseBacked('Hosted sign-in and OAuth consent') },
  {
    id: 'oauth',
    title: 'OAuth 2.0 / OpenID Connect provider',
    classify: (e) =>
      !e.oauthEnabled
        ? { status: 'gated', reason: 'OAUTH_ENABLED=false: token endpoints answer 503.' }
        : e.database.state !== 'pass'
          ? { status: 'degraded', reason: 'The database holding OAuth state is unavailable.' }
          : {
              status: 'live',
              reason:
                'Discovery, registration, authorization code + PKCE with hosted sign-in and consent, prompt/max_age, RFC 8707 resources ({base_url}/mcp), refresh rotation, userinfo, revocation and the bearer identity API.',
            },
  },
  {
    id: 'authorization',
    title: 'Organization and action authorization',
    classify: databaseBacked('Tenant authorization (roles, custom roles, delegated grants, policies, approvals)'),
  },
  { id: 'organizations', title: 'Organizations (tenants)', classify: mailBacked('Organization administration (invitations travel by mail)') },
  {
    id: 'agent_action_execution',
    title: 'Agent action execution',
    // The action catalog (register, list) is built; running an action is not offered by this deployment.
    classify: () => ({
      status: 'gated',
      reason: 'Disabled by default: organizations register and list schema-validated agent actions; executing them is not offered.',
    }),
  },
  {
    id: 'federation',
    title: 'Enterprise federation (OIDC, SAML)',
    classify: (e) =>
      !e.federation.enabled
        ? { status: 'gated', reason: "FEDERATION_ENABLED=false: discovery and sign-in through organizations' providers answer 503." }
        : e.database.state !== 'pass'
          ? { status: 'degraded', reason: 'The database holding domains and connections is unavailable.' }
          : {
              status: 'live',
              reason: `Verified domains (DNS TXT) and OpenID Connect sign-in through organizations' own providers; SAML execution ${e.federation.samlEnabled ? 'is switched on' : 'stays gated (SAML_ENABLED=false)'}.`,
            },
  },
  {
    id: 'developer',
    title: 'Developer portal, applications and API keys',
    classify: databaseBacked(
      'The developer portal (/portal), the developer API and the MCP server (/mcp): applications that are real OAuth clients (hashed secrets, certification with manual review of sensitive scopes, organization assignments) and scoped API keys',
    ),
  },
  {
    id: 'webhooks',
    title: 'Signed webhooks',
    classify: databaseBacked('Signed webhooks (Standard Webhooks) delivered from the outbox by a leased, retrying worker, with a delivery log'),
  },
  {
    id: 'scim',
    title: 'SCIM 2.0 provisioning',
    classify: databaseBacked(
      'SCIM 2.0 Users and Groups per organization (/scim/v2) behind organization SCIM tokens: provisioning, deactivation and deprovisioning of memberships, groups, filters, ETags and discovery',
    ),
  },
  {
    id: 'privacy',
    title: 'Privacy export and deletion requests',
    // People ask through the API; an operator completes each request (the review is manual by design).
    classify: (e) =>
      e.database.state !== 'pass'
        ? { status: 'degraded', reason: 'The database holding requests is unavailable.' }
        : {
            status: 'manual',
            reason:
              'The export is live (GET /api/v1/privacy/export); deletion requests are taken by the API and completed by an operator after review (npm run privacy:review), which erases the account in every context.',
          },
  },
];

export function classifyAll(e: Evidence): { id: string; title: string; status: CapabilityStatus; reason: string }[] {
  return CAPABILITIES.map((c) => ({ id: c.id, title: c.title, ...c.classify(e) }));
}

export function classifyOne(id: string, e: Evidence): CapabilityAnswer & { id: string; title: string } {
  const definition = CAPABILITIES.find((c) => c.id === id);
  if (!definition) throw new Error(`Unknown capability ${id}`);
  return { id, title: definition.title, ...definition.classify(e) };
}
