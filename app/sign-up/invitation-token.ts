const PLACEHOLDER_ORIGIN = 'https://return-to.invalid';
const TOKEN = /^[A-Za-z0-9_-]{1,256}$/;

/**
 * The invitation token of a sign-up begun from an invitation page: the (already safe) return_to is
 * that page, /invitations/accept?token=..., and its token is what proves the invited mailbox. Any
 * other return_to begins an ordinary sign-up.
 */
export function invitationTokenIn(returnTo: string): string | null {
  try {
    const url = new URL(returnTo, PLACEHOLDER_ORIGIN);
    if (url.origin !== PLACEHOLDER_ORIGIN || url.pathname !== '/invitations/accept') return null;
    const token = url.searchParams.get('token');
    return token && TOKEN.test(token) ? token : null;
  } catch {
    return null;
  }
}
