/**
 * The protocol lane on a real Node HTTP server (the front door installed, Next absent): the provider
 * writes its answers to Node's response itself, and what a client receives must be what the Web path
 * (Next's route handlers) gives, plus the fixed security headers next.config.ts adds there: status,
 * body and every header but the per-request ones. Refusals still reach security events, an answer
 * kept under an Idempotency-Key is still captured and replayed, and a handler that clears every
 * header before it answers (Koa, on an uncaught error) still answers with ours.
 */
import http, { type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getConfig } from '@/lib/config';
import { metrics } from '@/lib/platform';
import { registerNativeClient } from '@/tests/helpers/oauth';
import { installFrontDoor, openProtocolLane } from './front-door';
import { runNodeHandler } from './node-bridge';
import { EVERY_RESPONSE, JSON_SURFACE, PROTOCOL_SURFACE } from './security-headers';
import { serve } from './serve';

// Per request or per connection: never compared.
const VOLATILE = new Set(['date', 'connection', 'keep-alive', 'x-request-id', 'transfer-encoding']);

let server: Server;
let base: string;

function listen(handler: http.RequestListener): Promise<{ server: Server; base: string }> {
  const created = http.createServer(handler);
  return new Promise((resolve) =>
    created.listen(0, '127.0.0.1', () => resolve({ server: created, base: `http://127.0.0.1:${(created.address() as AddressInfo).port}` })),
  );
}

function comparable(headers: Headers): Record<string, string> {
  return Object.fromEntries([...headers].filter(([name]) => !VOLATILE.has(name)));
}

/** The same request through the lane (over HTTP) and through the Web path (in process, as Next calls it). */
async function bothWays(path: string, init: RequestInit, fixed: Record<string, string>) {
  const lane = await fetch(`${base}${path}`, init);
  const web = await serve(path)[(init.method ?? 'GET') as 'GET'](new Request(`${getConfig().origin}${path}`, init), { params: Promise.resolve({}) });
  const webHeaders = new Headers(fixed);
  web.headers.forEach((value, name) => webHeaders.set(name, value));
  return { lane, laneText: await lane.text(), web, webText: await web.text(), webHeaders };
}

async function securityEventCount(): Promise<number> {
  return (await metrics().securityEvents.get()).values.reduce((sum, { value }) => sum + value, 0);
}

beforeAll(async () => {
  installFrontDoor(http);
  await openProtocolLane();
  // Anything the lane does not answer would reach "Next": here a server that answers 599.
  ({ server, base } = await listen((_req, res) => {
    res.statusCode = 599;
    res.end();
  }));
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('the protocol lane', () => {
  it('answers discovery as the Web path does, with the fixed headers and a request id', async () => {
    const { lane, laneText, webText, webHeaders } = await bothWays('/.well-known/openid-configuration', {}, { ...EVERY_RESPONSE, ...JSON_SURFACE });
    expect(lane.status).toBe(200);
    expect(JSON.parse(laneText)).toEqual(JSON.parse(webText));
    expect(comparable(lane.headers)).toEqual(comparable(webHeaders));
    expect(lane.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(lane.headers.get('content-security-policy')).toBe(JSON_SURFACE['Content-Security-Policy']);
  });

  it('answers a refused bearer token as the Web path does, and each refusal is a security event', async () => {
    const init = { headers: { authorization: 'Bearer not-a-token-we-issued-0123456789' } };
    const before = await securityEventCount();
    const lane = await fetch(`${base}/oauth/userinfo`, init);
    const afterLane = await securityEventCount();
    const web = await serve('/oauth/userinfo').GET(new Request(`${getConfig().origin}/oauth/userinfo`, init), { params: Promise.resolve({}) });
    const afterWeb = await securityEventCount();

    expect(lane.status).toBe(401);
    expect(await lane.json()).toEqual(await web.json());
    const webHeaders = new Headers({ ...EVERY_RESPONSE, ...PROTOCOL_SURFACE });
    web.headers.forEach((value, name) => webHeaders.set(name, value));
    expect(comparable(lane.headers)).toEqual(comparable(webHeaders));
    expect(lane.headers.get('www-authenticate')).toContain('invalid_token');
    expect(lane.headers.get('cache-control')).toBe('no-store');
    expect(afterLane - before).toBeGreaterThan(0);
    expect(afterWeb - afterLane).toBe(afterLane - before);
  });

  it('keeps an answer under its Idempotency-Key and replays it', async () => {
    const clientId = await registerNativeClient();
    const revoke = () =>
      fetch(`${base}/oauth/revoke`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': 'lane-revoke-0001' },
        body: JSON.stringify({ token: 'a-token-nobody-holds-0123456789', client_id: clientId }),
      });
    const first = await revoke();
    const second = await revoke();
    expect(first.status).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(second.status).toBe(200);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.headers.get('x-request-id')).toBeTruthy();
    expect(second.headers.get('content-security-policy')).toBe(PROTOCOL_SURFACE['Content-Security-Policy']);
  });
});

describe('a Node handler writing through', () => {
  const ours = { 'X-Request-ID': 'request-0123456789', 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' };

  async function through(handler: (res: http.ServerResponse) => void) {
    let receipt: Promise<Response> | undefined;
    const target = await listen((req, res) => {
      receipt = runNodeHandler(
        async (_req, answer) => handler(answer),
        new Request(`${getConfig().origin}/oauth/x`),
        Buffer.alloc(0),
        getConfig().origin,
        '127.0.0.1',
        undefined,
        {
          res,
          headers: ours,
        },
      );
    });
    try {
      const answer = await fetch(`${target.base}/`);
      return { answer, text: await answer.text(), receipt: await receipt! };
    } finally {
      target.server.close();
    }
  }

  it('answers with our headers even when the handler cleared every header first, as Koa does on an uncaught error', async () => {
    const { answer, receipt } = await through((res) => {
      res.setHeader('X-Request-ID', 'from-the-handler');
      for (const name of res.getHeaderNames()) res.removeHeader(name);
      res.statusCode = 500;
      res.end('Internal Server Error');
    });
    expect(answer.status).toBe(500);
    expect(answer.headers.get('x-request-id')).toBe(ours['X-Request-ID']);
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    expect(receipt.status).toBe(500);
  });

  it("keeps the handler's own header of the same name, and hands back a 4xx body for security events", async () => {
    const refusal = JSON.stringify({ error: 'invalid_client', error_description: 'client authentication failed' });
    const { answer, text, receipt } = await through((res) => {
      res.statusCode = 401;
      res.setHeader('Cache-Control', 'private');
      res.setHeader('Content-Type', 'application/json; charset=utf-8');
      res.end(refusal);
    });
    expect(answer.status).toBe(401);
    expect(text).toBe(refusal);
    expect(answer.headers.get('cache-control')).toBe('private');
    expect(answer.headers.get('x-request-id')).toBe(ours['X-Request-ID']);
    expect(receipt.status).toBe(401);
    expect(receipt.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await receipt.json()).toEqual(JSON.parse(refusal));
  });
});
