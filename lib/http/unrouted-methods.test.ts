import { describe, expect, it } from 'vitest';
import { allowedMethods, OPERATIONS } from './registry';
import { isRoutedMethod, routesOf, unroutedAnswer } from './unrouted-methods';

const routes = routesOf(OPERATIONS, allowedMethods);
const answerAt = (path: string) => unroutedAnswer(routes, path, new Headers({ 'x-request-id': 'unrouted-0001' }));

describe('methods Next does not route', () => {
  // ASVS V13.4.4
  it('are exactly those outside Next route handlers’ methods', () => {
    for (const method of ['GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'DELETE', 'PATCH']) expect(isRoutedMethod(method)).toBe(true);
    for (const method of ['TRACE', 'CONNECT', 'PROPFIND', 'QUERY', 'PURGE']) expect(isRoutedMethod(method)).toBe(false);
  });

  it('get 405 with the path’s Allow, literal paths before parameters, trailing slash ignored', async () => {
    for (const [path, allow] of [
      ['/api/health', 'GET'],
      ['/api/health/', 'GET'],
      ['/api/auth/passkeys/8f1c', 'PATCH, DELETE'],
      ['/oauth/authorize/context', 'GET'],
      ['/oauth/authorize/abc', 'GET'],
      ['/oauth/authorize', 'GET, POST'],
      ['/sign-in', 'GET, HEAD'],
      ['/', 'GET, HEAD'],
    ] as const) {
      const response = answerAt(path);
      expect(response.status, path).toBe(405);
      expect(response.headers.get('allow'), path).toBe(allow);
      expect(response.headers.get('x-request-id')).toBe('unrouted-0001');
      expect((await response.json()).code).toBe('method_not_allowed');
    }
  });

  it('get 404 on an unknown API or protocol path, like every other method there', async () => {
    for (const path of ['/api/no-such-operation', '/api', '/oauth/nope', '/.well-known/nope', '/api/auth/passkeys/a/b']) {
      const response = answerAt(path);
      expect(response.status, path).toBe(404);
      expect((await response.json()).code).toBe('not_found');
    }
  });
});
