import { createHmac } from 'node:crypto';
import { getConfig } from '@/lib/config';

/** The CSRF token is bound to the session: HMAC(SESSION_SECRET, session id). Returned by GET /api/auth/session. */
export function csrfTokenFor(sessionId: string): string {
  return createHmac('sha256', getConfig().sessionSecret).update(`csrf:${sessionId}`).digest('base64url');
}
