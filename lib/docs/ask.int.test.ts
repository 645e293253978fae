import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { call, operation, ORIGIN, problemOf } from '@/tests/helpers/http';
import { withEnv } from '@/tests/setup/state';

const ask = operation('POST', '/api/docs/ask');
const PROVIDER_KEY = 'sk-test-provider-key-0123456789';
const PROVIDER_SECRET_BODY = 'internal provider trace 7f3a: do not forward';

let restore: (() => void) | null = null;
let provider: Server | null = null;
afterEach(async () => {
  restore?.();
  restore = null;
  await new Promise<void>((resolve) => (provider ? provider.close(() => resolve()) : resolve()));
  provider = null;
});

/** A real HTTP server speaking the chat-completions protocol, with a scripted behaviour. */
async function startProvider(behave: (req: IncomingMessage, res: ServerResponse, body: string) => void): Promise<string> {
  provider = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => behave(req, res, body));
  });
  await new Promise<void>((resolve) => provider!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(provider.address() as AddressInfo).port}/v1`;
}

const askWith = (body: unknown, headers: Record<string, string> = { origin: ORIGIN }) => call(ask, { headers, body });

describe('POST /api/docs/ask', () => {
  it('refuses a request without the exact site Origin with 403', async () => {
    for (const headers of [{} as Record<string, string>, { origin: 'https://evil.test' }]) {
      const response = await askWith({ question: 'What is a cursor?' }, headers);
      expect(response.status).toBe(403);
      expect((await problemOf(response)).code).toBe('origin_mismatch');
    }
  });

  it('refuses an empty or oversized question and a foreign page with 400', async () => {
    for (const body of [{ question: '' }, { question: 'x'.repeat(2001) }, { question: 'ok', page: 'https://evil.test/' }, {}]) {
      const response = await askWith(body);
      expect(response.status).toBe(400);
      expect((await problemOf(response)).code).toBe('invalid_request');
    }
  });

  it('answers from the local docs without a provider, as advisory text with sources', async () => {
    const response = await askWith({ question: 'How does cursor pagination work?', page: '/docs' });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.advisory).toBe(true);
    expect(body.answer).toContain('next_cursor');
    expect(body.sources).toContainEqual({ title: 'Pagination', url: '/docs#pagination' });
  });

  // ASVS V2.4.1
  it('returns 429 with Retry-After once the client bucket is spent', async () => {
    const statuses: number[] = [];
    let last: Response | null = null;
    for (let i = 0; i < 21; i++) {
      last = await call(ask, {
        headers: { origin: ORIGIN, 'x-forwarded-for': '192.0.2.44' },
        body: { question: 'limits?' },
        now: () => new Date('2026-11-22T09:00:10Z'),
      });
      statuses.push(last.status);
    }
    expect(statuses.slice(0, 20).every((s) => s === 200)).toBe(true);
    expect(statuses[20]).toBe(429);
    expect(last!.headers.get('retry-after')).toBe('50');
    expect((await problemOf(last!)).code).toBe('rate_limited');
  });

  it('asks the configured provider with its key, and returns only the answer text', async () => {
    let seen: { auth?: string; body?: { model: string; messages: { role: string; content: string }[] } } = {};
    const url = await startProvider((req, res, body) => {
      seen = { auth: req.headers.authorization, body: JSON.parse(body) };
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          id: 'cmpl-1',
          choices: [{ message: { role: 'assistant', content: 'Use next_cursor unchanged.' } }],
          usage: { secret: PROVIDER_SECRET_BODY },
        }),
      );
    });
    restore = withEnv({ HELP_PROVIDER_URL: url, HELP_PROVIDER_API_KEY: PROVIDER_KEY, HELP_PROVIDER_MODEL: 'docs-model' });
    const response = await askWith({ question: 'How do I page through results?' });
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(JSON.parse(text)).toMatchObject({ answer: 'Use next_cursor unchanged.', advisory: true });
    expect(text).not.toContain(PROVIDER_KEY);
    expect(text).not.toContain(PROVIDER_SECRET_BODY);
    expect(seen.auth).toBe(`Bearer ${PROVIDER_KEY}`);
    expect(seen.body?.model).toBe('docs-model');
    expect(seen.body?.messages.at(-1)).toEqual({ role: 'user', content: 'How do I page through results?' });
  });

  // ASVS V16.5.2
  it.each([
    ['a provider error', 502, 'upstream_failed', (res: ServerResponse) => ((res.statusCode = 500), res.end(PROVIDER_SECRET_BODY))],
    ['an unreadable answer', 502, 'upstream_failed', (res: ServerResponse) => res.end(`not json ${PROVIDER_SECRET_BODY}`)],
    ['a busy provider', 503, 'service_unavailable', (res: ServerResponse) => ((res.statusCode = 429), res.end(PROVIDER_SECRET_BODY))],
    ['a provider that never answers', 504, 'upstream_timeout', () => undefined],
  ] as const)('maps %s to %i without forwarding the provider body', async (_name, status, code, behave) => {
    const url = await startProvider((_req, res) => behave(res));
    restore = withEnv({ HELP_PROVIDER_URL: url, HELP_PROVIDER_TIMEOUT_MS: '300' });
    const response = await askWith({ question: 'anything' });
    expect(response.status).toBe(status);
    const problem = await problemOf(response);
    expect(problem.code).toBe(code);
    expect(JSON.stringify(problem)).not.toContain(PROVIDER_SECRET_BODY);
    provider?.closeAllConnections();
  });

  // ASVS V16.5.2
  it('answers 503 when the provider is unreachable', async () => {
    const url = await startProvider(() => undefined);
    await new Promise<void>((resolve) => provider!.close(() => resolve()));
    provider = null;
    restore = withEnv({ HELP_PROVIDER_URL: url });
    const response = await askWith({ question: 'anything' });
    expect(response.status).toBe(503);
    expect((await problemOf(response)).code).toBe('service_unavailable');
  });
});
