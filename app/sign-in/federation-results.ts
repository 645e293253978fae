/**
 * What the sign-in page says after a federated sign-in came back without signing anyone in
 * (`/sign-in?federation=<classification>`, lib/federation/signin/oidc-signin.ts). Written for the
 * person, never naming more than the classification did.
 */
const TRY_AGAIN = 'Please try again. If it keeps happening, tell your IT department.';

export const FEDERATION_MESSAGES: Record<string, string> = {
  invalid_request: `Your organization's sign-in did not come back complete. ${TRY_AGAIN}`,
  unknown_state: 'That sign-in link has already been used or has expired. Start again from here.',
  browser_mismatch: 'That sign-in was started in another browser or tab. Start again from here, in this browser.',
  provider_error: "Your organization's sign-in was cancelled or refused.",
  connection_disabled: "Your organization's single sign-on is switched off. Use another way to sign in, or ask your administrator.",
  provider_unreachable: `Your organization's identity provider could not be reached. ${TRY_AGAIN}`,
  unverified_email: 'Your organization did not confirm your e-mail address, so we cannot sign you in with it. Ask your IT department.',
  foreign_domain: 'That account belongs to a domain your organization has not verified here. Sign in with your work account.',
  federation_disabled: 'Single sign-on is switched off on this service. Use another way to sign in.',
  invalid_signature: `We could not verify your organization's answer. ${TRY_AGAIN}`,
  wrong_issuer: `We could not verify your organization's answer. ${TRY_AGAIN}`,
  wrong_audience: `We could not verify your organization's answer. ${TRY_AGAIN}`,
  wrong_nonce: 'That sign-in was not the one started here. Start again from here.',
  expired_token: `Your organization's answer arrived too late. ${TRY_AGAIN}`,
  token_exchange_failed: `Your organization's identity provider did not complete the sign-in. ${TRY_AGAIN}`,
  temporarily_unavailable: 'Signing in is temporarily unavailable. Please try again in a moment.',
};

/** The message for a `federation` query value; null for success, absence, or a value we never send. */
export function federationMessage(value: string | string[] | undefined): string | null {
  return typeof value === 'string' ? (FEDERATION_MESSAGES[value] ?? null) : null;
}
