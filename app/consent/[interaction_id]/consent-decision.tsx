/**
 * The decision is a plain HTML form posted to POST /oauth/authorize (with the session's CSRF token as
 * a field): it works before any script loads, and the API answers a form with a 303 to the provider's
 * resume URL, which sends the browser back to the application.
 */
export function ConsentDecision({ interactionId, csrfToken }: { interactionId: string; csrfToken: string }) {
  return (
    <form method="post" action="/oauth/authorize" className="auth-actions consent-actions">
      <input type="hidden" name="interaction_id" value={interactionId} />
      <input type="hidden" name="csrf_token" value={csrfToken} />
      <button type="submit" name="decision" value="approve">
        Allow
      </button>
      <button type="submit" name="decision" value="deny" className="auth-secondary">
        Deny
      </button>
    </form>
  );
}
