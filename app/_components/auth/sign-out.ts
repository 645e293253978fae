import { CONTRACTS } from '@/lib/http/contracts';
import { callContract } from '../api/call';
import type { ApiResult } from './api';

/**
 * Ends the browser's current session (revoking it clears the cookie) and leaves for `destination`
 * with a full navigation, so the server-rendered header shows the signed-out state.
 */
export async function signOut(destination = '/'): Promise<ApiResult> {
  const current = await callContract(CONTRACTS.getSession, {});
  if (!current.ok && current.status === 401) {
    // Already signed out (expired or revoked elsewhere): the goal is reached.
    window.location.assign(destination);
    return { ok: true, status: 200, body: null };
  }
  if (!current.ok) return current;
  const revoked = await callContract(CONTRACTS.revokeSession, { body: { session_id: current.body.session.id } }, { csrf: current.body.csrf_token });
  if (revoked.ok) window.location.assign(destination);
  return revoked;
}
