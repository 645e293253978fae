/**
 * The portal's Node.js quickstart (app/portal/quickstart-code.ts) is code that works: generated for a
 * real application, it is run here as written (its Express routes called as Express would, its
 * openid-client requests served by the real pipeline in-process), and it signs a person in.
 */
import * as client from 'openid-client';
import { describe, expect, it } from 'vitest';
import { quickstartCode, quickstartScope } from '@/app/portal/quickstart-code';
import { useMailbox } from '@/tests/helpers/accounts';
import { createApplication } from '@/tests/helpers/applications';
import { ORIGIN } from '@/tests/helpers/http';
import { approve, CookieJar, REDIRECT, throughPipeline } from '@/tests/helpers/oauth';
import { person } from '@/tests/helpers/organizations';

const mailbox = useMailbox();

type Handler = (req: Record<string, unknown>, res: { redirect: (to: string) => void }) => Promise<void>;
const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (...args: string[]) => (...values: unknown[]) => Promise<void>;

/**
 * Runs the snippet with its three imports supplied: an Express stand-in that records the routes, a
 * session middleware that does nothing (the test hands each request its session), and openid-client
 * whose discovery fetches through the pipeline. Nothing else of the code is changed.
 */
async function runQuickstart(code: string, env: Record<string, string>): Promise<Map<string, Handler>> {
  const routes = new Map<string, Handler>();
  const express = () => ({ use: () => undefined, get: (path: string, handler: Handler) => routes.set(path, handler), listen: () => undefined });
  const session = () => () => undefined;
  const openidClient = {
    ...client,
    discovery: (server: URL, clientId: string, metadata: undefined, auth: client.ClientAuth, options: client.DiscoveryRequestOptions) =>
      client.discovery(server, clientId, metadata, auth, { ...options, [client.customFetch]: throughPipeline() }),
  };
  const body = code.replace(/^import .*$/gm, '');
  await new AsyncFunction('express', 'session', 'client', 'process', body)(express, session, openidClient, { env });
  return routes;
}

describe('the portal quickstart', () => {
  it.each(['confidential', 'public'] as const)('signs a person in to a %s application, run as written', async (clientType) => {
    const owner = await person(mailbox, 'quickstart');
    const app = await createApplication(owner, { client_type: clientType, redirect_uris: [REDIRECT], scopes: ['openid', 'profile', 'email'] });
    const code = quickstartCode({ issuer: ORIGIN, clientId: app.client_id, clientType, redirectUri: REDIRECT, scopes: app.approved_scopes });
    const routes = await runQuickstart(code, { CLIENT_SECRET: app.client_secret ?? '', SESSION_SECRET: 'x'.repeat(32), PORT: '0' });
    expect([...routes.keys()]).toEqual(['/login', new URL(REDIRECT).pathname]);

    // GET /login: the session keeps the verifier and state, the browser goes to the provider.
    const session: Record<string, unknown> = {};
    let location = '';
    await routes.get('/login')!({ session }, { redirect: (to) => (location = to) });
    const authorization = new URL(location);
    expect(authorization.origin + authorization.pathname).toBe(`${ORIGIN}/oauth/authorize`);
    expect(authorization.searchParams.get('scope')).toBe('openid profile email');

    // The person signs in and consents; the provider sends the browser to the redirect URI.
    const callback = await approve(new CookieJar(owner.browser), owner.browser, Object.fromEntries(authorization.searchParams));
    let home = '';
    await routes.get(callback.pathname)!({ session, originalUrl: callback.pathname + callback.search }, { redirect: (to) => (home = to) });
    expect(home).toBe('/');
    expect(session.user).toMatchObject({ sub: expect.any(String), email: owner.email, email_verified: true });
  });

  it('asks for openid first, and for consent when it wants a refresh token', () => {
    expect(quickstartScope(['identity.profile.read', 'openid', 'email'])).toBe('openid identity.profile.read email');
    const input = { issuer: 'https://id.example.com', clientId: 'c1', clientType: 'public' as const, redirectUri: 'https://app.example.com/auth/callback' };
    expect(quickstartCode({ ...input, scopes: ['openid', 'offline_access'] })).toContain("prompt: 'consent'");
    expect(quickstartCode({ ...input, scopes: ['openid'] })).not.toContain('prompt');
  });

  it('lets plain http through only for an http issuer, and keeps a client secret out of the code', () => {
    const input = { clientId: 'c1', redirectUri: 'https://app.example.com/auth/callback', scopes: ['openid'] };
    const production = quickstartCode({ ...input, issuer: 'https://id.example.com', clientType: 'confidential' });
    expect(production).not.toContain('allowInsecureRequests');
    expect(production).toContain('client.ClientSecretBasic(process.env.CLIENT_SECRET)');
    expect(production).toContain("app.get('/auth/callback'");
    expect(quickstartCode({ ...input, issuer: 'http://localhost:3000', clientType: 'public' })).toContain('client.allowInsecureRequests');
    // Values are quoted as JavaScript strings, whatever they hold.
    expect(quickstartCode({ ...input, issuer: 'https://id.example.com', clientType: 'public', clientId: "it's\\x" })).toContain("'it\\'s\\\\x'");
  });
});
