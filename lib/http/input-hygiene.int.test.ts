/**
 * Control characters at the edge, through the real pipeline and the real provider, on the database
 * the suite runs on (PGlite, or the PostgreSQL server in CI): Postgres refuses NUL in text and jsonb
 * ("invalid byte sequence for encoding UTF8: 0x00"), which used to surface as 500s.
 */
import { describe, expect, it } from 'vitest';
import { mintAccessToken, registerNativeClient } from '@/tests/helpers/oauth';
import { signUpWithPassword, useMailbox } from '@/tests/helpers/accounts';
import { call, callRoute, operation, ORIGIN, problemOf } from '@/tests/helpers/http';
import { noteOperation } from '@/tests/helpers/test-operations';

const mailbox = useMailbox({ RATE_LIMIT_SCALE: '20' });
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
let clients = 0;
const client = () => ({ 'x-forwarded-for': `2001:db8:f0::${(clients += 1).toString(16)}` });

async function expectProblem(response: Response, path: string, message = /control character/i) {
  expect(response.status, await response.clone().text()).toBe(400);
  expect(response.headers.get('x-request-id')).toBeTruthy();
  const problem = await problemOf(response);
  expect(problem.code).toBe('invalid_request');
  expect(problem.errors).toEqual([{ path, message: expect.stringMatching(message) }]);
}

async function expectOAuthError(response: Response, message = /control character/i) {
  expect(response.status, await response.clone().text()).toBe(400);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  expect(response.headers.get('x-request-id')).toBeTruthy();
  expect(response.headers.get('cache-control')).toBe('no-store');
  const body = (await response.json()) as { error: string; error_description: string };
  expect(body.error).toBe('invalid_request');
  expect(body.error_description).toMatch(message);
}

describe('API operations refuse control characters with 400 invalid_request and a field pointer', () => {
  it('in a JSON body value that would reach the database (NUL, and other C0 controls)', async () => {
    const { value } = await mintAccessToken(
      await signUpWithPassword(mailbox, 'nul-body@example.test', 'a long and unusual passphrase 42'),
      'identity.profile.write',
    );
    for (const [i, bad] of ['Ada\u0000Lovelace', 'Ada\u0007', 'Ada\u001b[31m', 'Ada\u007f'].entries()) {
      const response = await call(operation('PATCH', '/api/v1/me'), {
        headers: { authorization: `Bearer ${value}`, 'idempotency-key': `nul-${i}` },
        body: { display_name: bad },
      });
      await expectProblem(response, 'body.display_name');
    }
  });

  it('in a JSON object key', async () => {
    const response = await call(noteOperation, { headers: { origin: ORIGIN }, params: { subject: 's1' }, body: { note: 'hello', 'n\u0000te': 'x' } });
    await expectProblem(response, 'body.n\\u0000te');
  });

  it('in a path parameter', async () => {
    const response = await call(noteOperation, { headers: { origin: ORIGIN }, params: { subject: 'abc\u0000' }, body: { note: 'hello' } });
    await expectProblem(response, 'params.subject');
  });

  it('in a query value, where even line breaks are refused', async () => {
    for (const tag of ['%00', 'a%0Ab', 'a%09b']) {
      const response = await call(noteOperation, { headers: { origin: ORIGIN }, params: { subject: 's2' }, query: `tag=${tag}`, body: { note: 'hello' } });
      await expectProblem(response, 'query.tag');
    }
  });

  it('in a plain form post', async () => {
    const response = await call(noteOperation, { headers: { origin: ORIGIN, ...FORM }, params: { subject: 's3' }, rawBody: 'note=hel%00lo' });
    await expectProblem(response, 'body.note');
  });

  it('in a query parameter of a real lookup (the pending authorization)', async () => {
    await expectProblem(await call(operation('GET', '/oauth/authorize/context'), { query: 'interaction_id=%00abc' }), 'query.interaction_id');
  });

  it('keeps tab, line feed and carriage return in free-text body values (JSON and form)', async () => {
    expect((await call(noteOperation, { headers: { origin: ORIGIN }, params: { subject: 's4' }, body: { note: 'line one\r\n\tline two' } })).status).toBe(201);
    expect(
      (await call(noteOperation, { headers: { origin: ORIGIN, ...FORM }, params: { subject: 's5' }, rawBody: 'note=line%20one%0D%0Aline%20two' })).status,
    ).toBe(201);
  });
});

describe('OAuth operations refuse control characters in the OAuth error format', () => {
  it('in a query parameter of the authorization endpoint', async () => {
    await expectOAuthError(
      await call(operation('GET', '/oauth/authorize'), { query: 'client_id=%00&response_type=code&redirect_uri=http%3A%2F%2F127.0.0.1%2Fcb' }),
    );
  });

  it('in a form parameter of the token endpoint', async () => {
    await expectOAuthError(
      await call(operation('POST', '/oauth/token'), { headers: FORM, rawBody: 'grant_type=refresh_token&refresh_token=abc&client_id=%00' }),
    );
  });

  it('in client credentials sent with HTTP Basic', async () => {
    const basic = Buffer.from(`${encodeURIComponent('\u0000client')}:secret`).toString('base64');
    await expectOAuthError(
      await call(operation('POST', '/oauth/token'), {
        headers: { ...FORM, authorization: `Basic ${basic}` },
        rawBody: 'grant_type=refresh_token&refresh_token=abc',
      }),
    );
  });

  it('in the JSON form of revocation', async () => {
    await expectOAuthError(
      await call(operation('POST', '/oauth/revoke'), {
        headers: { 'idempotency-key': 'nul-revoke' },
        body: { token: 'abc\u0000', client_id: await registerNativeClient() },
      }),
    );
  });

  it('in a registration request (stored as JSON)', async () => {
    const response = await call(operation('POST', '/oauth/register'), {
      headers: client(),
      body: { application_type: 'native', token_endpoint_auth_method: 'none', redirect_uris: ['http://127.0.0.1:50010/callback'], client_name: 'App\u0000' },
    });
    await expectOAuthError(response);
  });

  it('in a path parameter (the resume route)', async () => {
    await expectOAuthError(await callRoute('GET', '/oauth/authorize/{uid}', { params: { uid: 'abc\u0000' } }));
  });
});

describe('text that is not well-formed UTF-16 (a lone surrogate) is refused like a control character', () => {
  const LONE = /lone surrogate/;

  it('in a JSON body value, free text included, and in a JSON object key', async () => {
    for (const [i, note] of ['\ud800', 'a\udfffb', 'pair \ud83d\ude00 then lone \ud83d', '\ude00\ud83d'].entries()) {
      const response = await call(noteOperation, { headers: { origin: ORIGIN }, params: { subject: `u${i}` }, body: { note } });
      await expectProblem(response, 'body.note', LONE);
    }
    const key = await call(noteOperation, { headers: { origin: ORIGIN }, params: { subject: 'u9' }, body: { note: 'hello', 'n\ud800te': 'x' } });
    await expectProblem(key, 'body.n\\ud800te', LONE);
  });

  it('in a path parameter', async () => {
    await expectProblem(
      await call(noteOperation, { headers: { origin: ORIGIN }, params: { subject: 'abc\udc00' }, body: { note: 'hello' } }),
      'params.subject',
      LONE,
    );
  });

  it('keeps well-formed text outside the Basic Multilingual Plane (a surrogate pair)', async () => {
    expect(
      (await call(noteOperation, { headers: { origin: ORIGIN }, params: { subject: 'u10' }, body: { note: 'emoji \ud83d\ude00 and 𝔘𝔫𝔦𝔠𝔬𝔡𝔢' } })).status,
    ).toBe(201);
  });

  it('in a registration request (the OAuth error format)', async () => {
    const response = await call(operation('POST', '/oauth/register'), {
      headers: client(),
      body: { application_type: 'native', token_endpoint_auth_method: 'none', redirect_uris: ['http://127.0.0.1:50010/callback'], client_name: '\ud800App' },
    });
    await expectOAuthError(response, LONE);
  });
});
