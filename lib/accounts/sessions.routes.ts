import { bindResource, result, type AnyOperation } from '@/lib/contract/operation';
import { currentSession, listSessions } from '@/lib/sessions';
import { revokeOtherSessions, revokeSession } from './session-revocation';
import * as contract from './sessions.contract';

export const sessionOperations: AnyOperation[] = [
  bindResource(contract.getSession, ({ actor, now }) => currentSession(actor, now)),
  bindResource(contract.listSessions, ({ actor, now }) => listSessions(actor, now)),
  bindResource(contract.revokeSession, async ({ actor, body, now, requestId }) => {
    const { signedOut } = await revokeSession(actor, body.session_id, now, requestId);
    return result({ revoked: true as const }, signedOut ? { sessionCookie: { clear: true } } : {});
  }),
  bindResource(contract.revokeOtherSessions, ({ actor, now, requestId }) => revokeOtherSessions(actor, now, requestId)),
];
