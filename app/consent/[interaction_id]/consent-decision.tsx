import type { CallOutput } from '@/lib/contract/client';
import type { Contracts } from '@/lib/http/contracts';

type OrganizationOption = CallOutput<Contracts['getAuthorizationOrganizations']>['organizations'][number];

/**
 * The decision is a plain HTML form posted to POST /oauth/authorize (with the session's CSRF token as
 * a field): it works before any script loads, and the API answers a form with a 303 to the provider's
 * resume URL, which sends the browser back to the application.
 *
 * An organization-scoped request is bound to one organization: the one the application named (sent
 * as a hidden field), or the one chosen in the labelled select. When nothing can be granted
 * (`allowed` false) the form offers only Deny.
 */
export function ConsentDecision({
  interactionId,
  csrfToken,
  organization = null,
  allowed = true,
}: {
  interactionId: string;
  csrfToken: string;
  organization?: { fixed: OrganizationOption } | { choices: OrganizationOption[] } | null;
  allowed?: boolean;
}) {
  return (
    <form method="post" action="/oauth/authorize" className="consent-decision">
      <input type="hidden" name="interaction_id" value={interactionId} />
      <input type="hidden" name="csrf_token" value={csrfToken} />
      {allowed && organization && 'fixed' in organization && <input type="hidden" name="organization_id" value={organization.fixed.id} />}
      {allowed && organization && 'choices' in organization && (
        <div className="auth-field">
          <label htmlFor="consent-organization">Organization it may access</label>
          <select id="consent-organization" name="organization_id" required defaultValue="" aria-describedby="consent-organization-hint">
            <option value="" disabled>
              Choose an organization
            </option>
            {organization.choices.map((choice) => (
              <option key={choice.id} value={choice.id}>
                {choice.name}
              </option>
            ))}
          </select>
          <p className="hint" id="consent-organization-hint">
            The application sees this organization only, and loses access if you leave it.
          </p>
        </div>
      )}
      <div className="auth-actions consent-actions">
        {allowed && (
          <button type="submit" name="decision" value="approve">
            Allow
          </button>
        )}
        {/* Denying needs no organization: the browser must not hold it back for the empty select. */}
        <button type="submit" name="decision" value="deny" className="auth-secondary" formNoValidate>
          {allowed ? 'Deny' : 'Back to the application'}
        </button>
      </div>
    </form>
  );
}
