/**
 * Certification of developer applications (docs/decisions.md, "Application certification"). Scopes
 * that only let an application sign a person in and read their profile, e-mail or organizations (and
 * stay connected) are approved at once; scopes that act on a person's developer account, change their
 * profile or export their data stay pending until an operator approves them
 * (`npm run applications:certify -- <client_id> <scope...>`). Only approved scopes reach the
 * provider's client record, so a pending scope is refused by the provider itself (invalid_scope).
 */
import { isAllowedRedirectUri, REDIRECT_URI_RULE } from '@/lib/contract/redirect-uris';

/** Scopes an operator reviews before an application may request them. */
export const REVIEWED_SCOPES: readonly string[] = [
  'identity.developer.read',
  'identity.applications.manage',
  'identity.webhooks.test',
  'identity.api_keys.create',
  'identity.privacy.export',
  'identity.profile.write',
];

/**
 * The approved part of the requested scopes: every scope that needs no review, and reviewed scopes an
 * operator approved before (an approval survives edits for as long as the scope stays requested).
 */
export function approvedScopesOf(requested: readonly string[], previouslyApproved: readonly string[] = []): string[] {
  return requested.filter((scope) => !REVIEWED_SCOPES.includes(scope) || previouslyApproved.includes(scope));
}

export interface CertifiedApplication {
  id: string;
  clientType: 'confidential' | 'public';
  redirectUris: string[];
  scopes: string[];
  approvedScopes: string[];
  secretHash: string | null;
  status: 'enabled' | 'disabled';
}

export function certificationOf(app: CertifiedApplication) {
  const pending = app.scopes.filter((scope) => !app.approvedScopes.includes(scope));
  const checks = [
    { name: 'application_enabled', passed: app.status === 'enabled', detail: app.status === 'enabled' ? undefined : 'The application is disabled.' },
    {
      name: 'redirect_uris_https_or_loopback',
      passed: app.redirectUris.length > 0 && app.redirectUris.every(isAllowedRedirectUri),
      detail: REDIRECT_URI_RULE,
    },
    {
      name: 'client_secret_issued',
      passed: app.clientType === 'public' || app.secretHash !== null,
      detail:
        app.clientType === 'public'
          ? 'A public client authenticates with PKCE only.'
          : app.secretHash
            ? undefined
            : 'Issue a secret in the portal (rotate-secret).',
    },
    {
      name: 'approved_scope_present',
      passed: app.approvedScopes.length > 0,
      detail: app.approvedScopes.length ? undefined : 'No scope is approved yet: the provider refuses the application until one is.',
    },
    { name: 'pkce_required', passed: true, detail: 'The provider requires PKCE (S256) from every client.' },
    { name: 'scopes_reviewed', passed: pending.length === 0, detail: pending.length ? `Pending operator review: ${pending.join(' ')}` : undefined },
  ];
  return {
    application_id: app.id,
    status: checks.every((check) => check.passed) ? ('certified' as const) : ('pending_review' as const),
    approved_scopes: app.approvedScopes,
    pending_scopes: pending,
    checks,
  };
}
