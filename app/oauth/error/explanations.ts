/**
 * What an OAuth error means for the person who sees it, in plain words (RFC 6749 §4.1.2.1 codes,
 * OIDC Core 3.1.2.6, RFC 8707). Codes not listed get the generic explanation; the code and the
 * request id are always shown for whoever helps.
 */
export interface Explanation {
  heading: string;
  text: string;
}

const REQUEST_REFUSED = 'The application sent a sign-in request this service does not accept. Nothing was shared with it.';

const EXPLANATIONS: Record<string, Explanation> = {
  invalid_client: {
    heading: 'Unknown application',
    text: 'The application that sent you here is not registered with this service, so it cannot ask you to sign in.',
  },
  invalid_redirect_uri: {
    heading: 'Unexpected return address',
    text: 'The application asked to send you back to an address it has not registered. For your safety you stay here.',
  },
  login_required: {
    heading: 'Sign-in needed',
    text: 'The application asked to go ahead without showing you any page of this service, but you need to sign in or confirm here first. Start again from the application.',
  },
  interaction_required: {
    heading: 'Your permission is needed',
    text: 'The application asked to continue without asking you, but it needs your permission first.',
  },
  consent_required: { heading: 'Your permission is needed', text: 'The application asked to continue without asking you, but it needs your permission first.' },
  access_denied: { heading: 'Request declined', text: 'The request was declined. Nothing was shared with the application.' },
  invalid_request: { heading: 'Request not accepted', text: REQUEST_REFUSED },
  invalid_scope: { heading: 'Request not accepted', text: 'The application asked for permissions this service does not offer. Nothing was shared with it.' },
  invalid_target: {
    heading: 'Request not accepted',
    text: 'The application asked for access to a service this sign-in does not cover. Nothing was shared with it.',
  },
  unsupported_response_type: { heading: 'Request not accepted', text: REQUEST_REFUSED },
  temporarily_unavailable: {
    heading: 'Sign-in for applications is paused',
    text: 'This service is not accepting application sign-ins at the moment. Try again later.',
  },
  server_error: {
    heading: 'Something went wrong on our side',
    text: 'The request could not be completed because of a problem in this service. Try again in a moment.',
  },
};

/** Reasons that say more than the code (error-page.ts sends them). */
const REASONS: Record<string, Explanation> = {
  expired: {
    heading: 'This sign-in request has expired',
    text: 'The request was already completed, or it waited too long. Go back to the application and start again.',
  },
};

export function explain(error: string, reason: string | undefined): Explanation {
  return (reason && REASONS[reason]) || EXPLANATIONS[error] || { heading: 'The sign-in request could not be completed', text: REQUEST_REFUSED };
}
