/**
 * Development and benchmark surfaces are absent in a normal start: the benchmark's bare route answers
 * 404 unless BENCH_BARE_ROUTE=true, and the provider's quick-start interaction pages (oidc-provider's
 * devInteractions, on by default there) are switched off and unrouted. e2e/probe.spec.ts asks the same
 * of the built server.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { getConfig } from '@/lib/config';
import { runNodeHandler } from '@/lib/http/node-bridge';
import type { NodeRequestHandler } from '@/lib/contract/operation';
import { providerHandler } from '@/lib/oidc/provider';
import { GET as benchBare } from '@/app/api/bench/bare/route';
import { withEnv } from '../setup/state';

/** oidc-provider 9 mounts these when devInteractions is enabled (lib/helpers/initialize_app.js). */
const DEV_INTERACTION_REQUESTS = [
  ['GET', '/interaction/some-uid'],
  ['POST', '/interaction/some-uid'],
  ['GET', '/interaction/some-uid/abort'],
] as const;

async function ask(handler: NodeRequestHandler, method: string, pathname: string): Promise<number> {
  const request = new Request(`${getConfig().baseUrl}${pathname}`, {
    method,
    headers: method === 'POST' ? { 'content-type': 'application/x-www-form-urlencoded' } : {},
  });
  const response = await runNodeHandler(handler, request, Buffer.from(method === 'POST' ? 'prompt=login&login=someone' : ''), getConfig().origin, '127.0.0.1');
  return response.status;
}

describe('development surfaces in a normal start', () => {
  // ASVS V13.4.2, V13.4.5
  it('answers 404 on the benchmark bare route unless BENCH_BARE_ROUTE=true', async () => {
    expect(getConfig().benchBareRoute).toBe(false);
    expect((await benchBare()).status).toBe(404);
    const restore = withEnv({ BENCH_BARE_ROUTE: 'true' });
    try {
      expect((await benchBare()).status).toBe(200);
    } finally {
      restore();
    }
  });

  // ASVS V13.4.2
  it("answers 404 on the provider's development interaction routes, which a provider with the feature on would serve", async () => {
    const ours = await providerHandler();
    for (const [method, pathname] of DEV_INTERACTION_REQUESTS) expect(await ask(ours, method, pathname), `${method} ${pathname}`).toBe(404);

    // The same requests on a bare provider with its default configuration (devInteractions on): routed.
    const { default: Provider } = await import('oidc-provider');
    const quickStart = new Provider(getConfig().baseUrl, { features: { devInteractions: { enabled: true } } });
    const theirs = quickStart.callback() as unknown as NodeRequestHandler;
    for (const [method, pathname] of DEV_INTERACTION_REQUESTS) expect(await ask(theirs, method, pathname), `${method} ${pathname}`).not.toBe(404);
  });

  it('routes no /interaction path to the provider or anything else', () => {
    expect(existsSync(path.resolve(__dirname, '../../app/interaction'))).toBe(false);
  });
});
