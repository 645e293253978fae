/**
 * A normal start (no BENCH_BARE_ROUTE, the built server as operators run it) has no development or
 * benchmark surfaces: the benchmark's bare route and the provider's quick-start interaction pages
 * (oidc-provider devInteractions) answer 404. tests/contract/development-surfaces.test.ts checks the
 * same in-process, and that the provider would serve them with the feature on.
 */
import { expect, test } from './support/test';

test.describe('development surfaces', () => {
  // ASVS V13.4.2, V13.4.5
  test('answer 404 in a normal start', async ({ request }) => {
    expect((await request.get('/api/bench/bare')).status()).toBe(404);
    // The dev mailbox page: this server sends mail over SMTP, so there is no mailbox to show.
    expect((await request.get('/dev/mail')).status()).toBe(404);
    for (const [method, path] of [
      ['GET', '/interaction/some-uid'],
      ['POST', '/interaction/some-uid'],
      ['GET', '/interaction/some-uid/abort'],
    ] as const) {
      const response = await request.fetch(path, { method, form: method === 'POST' ? { prompt: 'login', login: 'someone' } : undefined });
      expect(response.status(), `${method} ${path}`).toBe(404);
    }
  });
});
