/** How the operations that issue or renew a session answer: the body, and the cookie the edge sets. */
import { result, type SessionCookieInstruction } from '@/lib/contract/operation';
import type { IssuedSession } from '@/lib/sessions';

/** A sign-in's answer: the session view, and the sealed cookie set on the response. */
export function signedIn(issued: IssuedSession) {
  return result(issued.view, { sessionCookie: issued.cookie });
}

/** A step-up's answer: when and how, and the session's new cookie (the old one is dead, ASVS V7.2.4). */
export function steppedUp(outcome: { stepUp: { step_up_at: string; step_up_method: 'passkey' | 'password' }; cookie: SessionCookieInstruction }) {
  return result(outcome.stepUp, { sessionCookie: outcome.cookie });
}
