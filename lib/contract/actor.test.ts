import { describe, expect, it } from 'vitest';
import { actorOfKind, ANONYMOUS, type Actor } from './actor';
import { ServiceError } from './errors';

describe('actorOfKind', () => {
  const session: Actor = {
    kind: 'session',
    userId: 'u',
    sessionId: 's',
    authenticatedAt: new Date(0),
    stepUpAt: null,
    stepUpMethod: null,
    amr: ['pwd'],
    lastSeenAt: new Date(0),
    bindingHash: null,
  };

  it('returns the actor when the kind matches', () => {
    expect(actorOfKind(session, 'session')).toBe(session);
  });

  it('refuses another kind with the catalogued 401 unauthenticated, not an internal error', () => {
    let thrown: unknown;
    try {
      actorOfKind(ANONYMOUS, 'session');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ServiceError);
    expect(thrown).toMatchObject({ status: 401, code: 'unauthenticated' });
  });
});
