/**
 * What the signed-in pages that call the API from the browser (the organization console, the
 * developer portal) share: leaving for the sign-in page when the session cannot act any more, and
 * Idempotency-Keys.
 */
import type { ApiResult } from './api';

/** Sign-in that comes back to this very view; `again` asks for a fresh sign-in although a session is live. */
export function signInHref(again: boolean): string {
  const here = `${window.location.pathname}${window.location.search}`;
  return `/sign-in?${again ? 'reauthenticate=1&' : ''}return_to=${encodeURIComponent(here)}`;
}

/**
 * A 401 means this session cannot act here any more: it ended (sign in) or the organization wants a
 * more recent sign-in than this session's (reauthentication_required: sign in again). Either way the
 * page has nothing to show until then, so it leaves for the sign-in page.
 */
export function leftForSignIn(result: ApiResult): boolean {
  if (result.ok || result.status !== 401) return false;
  window.location.assign(signInHref(result.body.code === 'reauthentication_required'));
  return true;
}

/** 128 random bits as hex; crypto.randomUUID() exists only in secure contexts, getRandomValues everywhere. */
export function idempotencyKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}
