/**
 * The TypeScript client's hand-written runtime (clients/typescript/src) against a recording fetch:
 * what goes on the wire, how refusals become errors, how paginate follows cursors. The e2e spec
 * (e2e/client-package.spec.ts) runs the same client against the built service.
 */
import { describe, expect, it } from 'vitest';
import { IdentityClient, ProblemError, UnexpectedResponseError, retryAfterSeconds } from '@/clients/typescript/src/index';

type Sent = { url: URL; method: string; headers: Record<string, string>; body: string | undefined };

/** A client whose fetch records each request and answers from `answers`, in turn. */
function recording(answers: (() => Response)[], credential: string | (() => string) = 'idk_test') {
  const sent: Sent[] = [];
  const client = new IdentityClient({
    baseUrl: 'https://id.example.test/ignored/path',
    credential,
    fetch: async (input, init) => {
      sent.push({
        url: new URL(String(input)),
        method: init!.method!,
        headers: init!.headers as Record<string, string>,
        body: init!.body as string | undefined,
      });
      const answer = answers.shift();
      if (!answer) throw new Error('no answer left');
      return answer();
    },
  });
  return { client, sent };
}

const json =
  (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  () =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
const problem =
  (status: number, code: string, headers: Record<string, string> = {}) =>
  () =>
    new Response(JSON.stringify({ type: `about:blank#${code}`, title: 'Refused', status, code, request_id: 'req-1', detail: 'Why' }), {
      status,
      headers: { 'content-type': 'application/problem+json', 'x-request-id': 'req-1', ...headers },
    });
const page = (items: string[], next: string | null) => json({ members: items.map((id) => ({ id })), has_more: next !== null, next_cursor: next });

describe('the client on the wire', () => {
  it('sends the credential, the API version, the path parameter encoded and only declared query parameters', async () => {
    const { client, sent } = recording([page([], null)]);
    await client.listOrganizationMembers({ id: 'a/b', status: 'active', limit: 5, cursor: 'c1', ...({ stray: 'x' } as object) });
    const [request] = sent;
    expect(request!.method).toBe('GET');
    expect(request!.url.origin + request!.url.pathname).toBe('https://id.example.test/api/v1/organizations/a%2Fb/members');
    expect(Object.fromEntries(request!.url.searchParams)).toEqual({ status: 'active', limit: '5', cursor: 'c1' });
    expect(request!.headers).toMatchObject({ authorization: 'Bearer idk_test', 'x-service-api-version': 'v1' });
    expect(request!.headers['idempotency-key']).toBeUndefined();
    expect(request!.body).toBeUndefined();
  });

  it('asks the credential function before every request', async () => {
    let n = 0;
    const { client, sent } = recording([json({ id: 'o' }), json({ id: 'o' })], () => `token-${(n += 1)}`);
    await client.getBoundOrganization({ id: 'o' });
    await client.getBoundOrganization({ id: 'o' });
    expect(sent.map((s) => s.headers.authorization)).toEqual(['Bearer token-1', 'Bearer token-2']);
  });

  it('sends an Idempotency-Key where the operation takes one: the caller’s, else a fresh random one', async () => {
    const answer = json({ delivery_id: 'd' }, 202);
    const { client, sent } = recording([answer, answer, answer]);
    await client.testWebhook({ body: { webhook_id: 'w1' } }, { idempotencyKey: 'retry-me' });
    await client.testWebhook({ body: { webhook_id: 'w1' } });
    await client.testWebhook({ body: { webhook_id: 'w1' } });
    expect(sent[0]!.headers['idempotency-key']).toBe('retry-me');
    expect(sent[1]!.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(sent[2]!.headers['idempotency-key']).not.toBe(sent[1]!.headers['idempotency-key']);
    expect(sent[0]).toMatchObject({ method: 'POST', body: '{"webhook_id":"w1"}', headers: { 'content-type': 'application/json' } });
  });

  it('refuses an Idempotency-Key on an operation that takes none', async () => {
    const { client, sent } = recording([]);
    await expect(client.listApiKeys({}, { idempotencyKey: 'k' } as object)).rejects.toThrow(TypeError);
    expect(sent).toEqual([]);
  });

  it('throws a problem document as a ProblemError with status, code, request id and Retry-After', async () => {
    const { client } = recording([problem(429, 'rate_limited', { 'retry-after': '30' }), problem(403, 'forbidden')]);
    const limited = await client.listApiKeys().catch((error: unknown) => error);
    expect(limited).toBeInstanceOf(ProblemError);
    expect(limited).toMatchObject({ status: 429, code: 'rate_limited', requestId: 'req-1', retryAfter: 30, detail: 'Why', title: 'Refused' });
    const refused = (await client.getBoundOrganization({ id: 'x' }).catch((error: unknown) => error)) as ProblemError;
    expect(refused).toMatchObject({ status: 403, code: 'forbidden', retryAfter: null });
    expect(refused.problem.type).toBe('about:blank#forbidden');
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterSeconds('120', now)).toBe(120);
    expect(retryAfterSeconds('Thu, 01 Jan 2026 00:01:30 GMT', now)).toBe(90);
    expect(retryAfterSeconds('Wed, 31 Dec 2025 23:00:00 GMT', now)).toBe(0);
    expect(retryAfterSeconds(null, now)).toBeNull();
    expect(retryAfterSeconds('soon', now)).toBeNull();
  });

  it('throws anything else that is not a success as an UnexpectedResponseError', async () => {
    const { client } = recording([() => new Response('<h1>Bad gateway</h1>', { status: 502, headers: { 'content-type': 'text/html', 'x-request-id': 'r9' } })]);
    const error = await client.getMe().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect(error).toMatchObject({ status: 502, contentType: 'text/html', requestId: 'r9' });
  });

  it('refuses plain http except on loopback, so a credential never travels in clear text', () => {
    expect(() => new IdentityClient({ baseUrl: 'http://id.example.test', credential: 'k' })).toThrow(/https/);
    for (const loopback of ['http://localhost:3000', 'http://127.0.0.1:3000', 'http://[::1]:3000']) {
      expect(() => new IdentityClient({ baseUrl: loopback, credential: 'k' })).not.toThrow();
    }
  });
});

describe('paginate', () => {
  it('follows next_cursor until the last page, keeping the caller’s limit and filters', async () => {
    const { client, sent } = recording([page(['m1'], 'c1'), page(['m2'], 'c2'), page(['m3'], null)]);
    const ids: string[] = [];
    for await (const member of client.paginate('listOrganizationMembers', { id: 'org', limit: 1, status: 'active' })) ids.push(member.id);
    expect(ids).toEqual(['m1', 'm2', 'm3']);
    expect(sent.map((s) => s.url.searchParams.get('cursor'))).toEqual([null, 'c1', 'c2']);
    expect(sent.every((s) => s.url.searchParams.get('limit') === '1' && s.url.searchParams.get('status') === 'active')).toBe(true);
  });

  it('fetches no further page once the caller stops', async () => {
    const { client, sent } = recording([page(['m1', 'm2'], 'c1'), page(['m3'], null)]);
    for await (const member of client.paginate('listOrganizationMembers', { id: 'org' })) if (member.id === 'm1') break;
    expect(sent).toHaveLength(1);
  });
});
