import * as client from 'openid-client';
import { describe, expect, it } from 'vitest';
import { call, operation, ORIGIN } from '@/tests/helpers/http';
import { throughPipeline } from '@/tests/helpers/oauth';
import { getDb } from '@/lib/db';
import { countModels } from './adapter.repo';
import { isAllowedRedirectUri } from './registration-policy';

let clientAddress = 0;

async function register(metadata: Partial<client.ClientMetadata>, address = `2001:db8:r::${(clientAddress += 1)}`) {
  const fetcher = throughPipeline(address);
  return client.dynamicClientRegistration(new URL(ORIGIN), metadata, undefined, {
    execute: [client.allowInsecureRequests],
    [client.customFetch]: fetcher,
  });
}

const NATIVE = {
  client_name: 'Journey CLI',
  application_type: 'native',
  token_endpoint_auth_method: 'none',
  grant_types: ['authorization_code', 'refresh_token'],
  response_types: ['code'],
  redirect_uris: ['http://127.0.0.1:49152/callback'],
};

async function rawRegister(body: unknown) {
  return call(operation('POST', '/oauth/register'), { body, headers: { 'x-forwarded-for': `2001:db8:r::${(clientAddress += 1)}` } });
}

describe('dynamic client registration', () => {
  it('registers a public native client an independent relying party can use', async () => {
    const config = await register(NATIVE);
    const metadata = config.clientMetadata();
    expect(metadata.client_id).toEqual(expect.any(String));
    expect(metadata.client_secret).toBeUndefined();
    expect(metadata.token_endpoint_auth_method).toBe('none');
    expect(metadata.redirect_uris).toEqual(['http://127.0.0.1:49152/callback']);
    expect(metadata).not.toHaveProperty('registration_policy');
  });

  it('advertises no registration management (RFC 7592): no registration_client_uri, no registration access token', async () => {
    const response = await rawRegister(NATIVE);
    expect(response.status).toBe(201);
    const body = await response.json();
    expect(body).not.toHaveProperty('registration_client_uri');
    expect(body).not.toHaveProperty('registration_access_token');
    expect(await countModels(await getDb(), 'RegistrationAccessToken')).toBe(0);
  });

  // ASVS V10.4.4
  it.each([
    ['a web application', { application_type: 'web', redirect_uris: ['https://app.example/cb'] }, 'invalid_client_metadata'],
    ['a confidential client', { token_endpoint_auth_method: 'client_secret_basic' }, 'invalid_client_metadata'],
    ['the implicit grant', { grant_types: ['implicit'], response_types: ['id_token'] }, 'invalid_client_metadata'],
    ['a plain-http non-loopback redirect', { redirect_uris: ['http://app.example/cb'] }, 'invalid_redirect_uri'],
    ['a custom-scheme redirect', { redirect_uris: ['com.example.app:/cb'] }, 'invalid_redirect_uri'],
    ['redirect_uris that are not a list', { redirect_uris: 2147483645 }, 'invalid_redirect_uri'],
    ['grant_types that are not a list', { grant_types: 7 }, 'invalid_client_metadata'],
    ['response_types that are not a list', { response_types: 'code' }, 'invalid_client_metadata'],
  ])('refuses %s with 400 and an RFC 7591 error', async (_name, override, error) => {
    const response = await rawRegister({ ...NATIVE, ...override });
    expect(response.status).toBe(400);
    expect(response.headers.get('x-request-id')).toBeTruthy();
    expect((await response.json()).error).toBe(error);
  });

  // ASVS V2.4.1
  it('is rate limited per client address', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const response = await call(operation('POST', '/oauth/register'), { body: NATIVE, headers: { 'x-forwarded-for': '2001:db8:r::ffff' } });
      statuses.push(response.status);
    }
    expect(statuses.slice(0, 10).every((s) => s === 201)).toBe(true);
    expect(statuses[10]).toBe(429);
  });
});

describe('redirect URI policy', () => {
  it('allows HTTPS and loopback http only, never fragments', () => {
    for (const ok of ['https://app.example/cb', 'http://127.0.0.1:8080/cb', 'http://[::1]:9/cb', 'http://localhost:3000/cb']) expect(isAllowedRedirectUri(ok), ok).toBe(true);
    for (const bad of ['http://app.example/cb', 'https://app.example/cb#frag', 'myapp:/cb', 'javascript:alert(1)', 'not a url', 'http://127.0.0.1.evil.test/cb']) {
      expect(isAllowedRedirectUri(bad), bad).toBe(false);
    }
  });
});
