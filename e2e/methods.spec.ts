import { expect, test, type APIResponse } from './support/test';

/**
 * Methods Next.js does not route (TRACE cannot even become a Fetch Request; PROPFIND, QUERY and the
 * like reach no route handler) are answered like every undeclared method: 405 problem+json with
 * Allow and X-Request-ID, or 404 on an unknown API path. Only a built server shows Next's own
 * behaviour, so this runs against `next start`.
 */
async function expectAnswer(response: APIResponse, status: number, code: string, allow: string | null, requestId: string) {
  expect(response.status(), `${response.url()}`).toBe(status);
  expect(response.headers()['content-type']).toMatch(/^application\/problem\+json/);
  expect(response.headers()['x-request-id']).toBe(requestId);
  expect(response.headers()['allow'] ?? null).toBe(allow);
  const problem = await response.json();
  expect(problem).toMatchObject({ status, code, request_id: requestId });
}

test.describe('methods Next does not route', () => {
  for (const method of ['TRACE', 'PROPFIND', 'QUERY']) {
    // ASVS V13.4.4
    test(`${method} answers like any undeclared method`, async ({ request }) => {
      const id = `e2e-${method.toLowerCase()}-0001`;
      const send = (path: string) => request.fetch(path, { method, headers: { 'x-request-id': id } });
      // The API's own answer for an undeclared method on the same path is the reference.
      const declared = await request.fetch('/api/health', { method: 'DELETE', headers: { 'x-request-id': id } });
      await expectAnswer(declared, 405, 'method_not_allowed', 'GET', id);
      await expectAnswer(await send('/api/health'), 405, 'method_not_allowed', 'GET', id);
      await expectAnswer(await send('/api/auth/passkeys/00000000-0000-4000-8000-000000000000'), 405, 'method_not_allowed', 'PATCH, DELETE', id);
      await expectAnswer(await send('/oauth/token'), 405, 'method_not_allowed', 'POST', id);
      await expectAnswer(await send('/.well-known/openid-configuration?x=1'), 405, 'method_not_allowed', 'GET', id);
      await expectAnswer(await send('/api/no-such-operation'), 404, 'not_found', null, id);
      // Pages are served to GET and HEAD only.
      await expectAnswer(await send('/sign-in'), 405, 'method_not_allowed', 'GET, HEAD', id);
    });
  }

  test('routed methods are untouched', async ({ request }) => {
    const head = await request.fetch('/api/health', { method: 'HEAD' });
    expect(head.status()).toBe(200);
    expect(head.headers()['x-request-id']).toBeTruthy();
  });
});
