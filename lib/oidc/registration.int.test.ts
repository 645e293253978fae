import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, operation, ORIGIN } from '@/tests/helpers/http';
import { throughPipeline } from '@/tests/helpers/oauth';
import { getDb } from '@/lib/db';
import { countModels } from './adapter.repo';
import { getProvider } from './provider';
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
    for (const ok of ['https://app.example/cb', 'http://127.0.0.1:8080/cb', 'http://[::1]:9/cb', 'http://localhost:3000/cb'])
      expect(isAllowedRedirectUri(ok), ok).toBe(true);
    for (const bad of [
      'http://app.example/cb',
      'https://app.example/cb#frag',
      'myapp:/cb',
      'javascript:alert(1)',
      'not a url',
      'http://127.0.0.1.evil.test/cb',
    ]) {
      expect(isAllowedRedirectUri(bad), bad).toBe(false);
    }
  });
});

describe('redirect URIs with user info', () => {
  it('are refused by the shared rule, an empty user info included', () => {
    for (const bad of [
      'http://evil.example@127.0.0.1/cb',
      'https://user:pw@app.example/cb',
      'https://@app.example/cb',
      'http://:@localhost:3000/cb',
      'https://app.example@evil.example/cb',
    ]) {
      expect(isAllowedRedirectUri(bad), bad).toBe(false);
    }
    // An @ in the path or query is no user info.
    for (const ok of ['https://app.example/cb?next=a@b', 'http://127.0.0.1:8080/@cb']) expect(isAllowedRedirectUri(ok), ok).toBe(true);
  });

  it('are refused at dynamic registration with invalid_redirect_uri and the rule in words', async () => {
    for (const uri of ['http://evil.example@127.0.0.1/cb', 'https://@app.example/cb']) {
      const response = await rawRegister({ ...NATIVE, redirect_uris: [uri] });
      expect(response.status, uri).toBe(400);
      expect(await response.json(), uri).toEqual({
        error: 'invalid_redirect_uri',
        error_description: expect.stringContaining('without a fragment or user info'),
      });
    }
  });
});

describe('metadata that would make the provider fetch a URL', () => {
  // A TCP listener standing for an internal service: it counts every connection made to it.
  let listener: Server;
  let connections = 0;
  let internalUrl: string;
  beforeAll(async () => {
    listener = createServer((socket) => {
      connections += 1;
      socket.destroy();
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    internalUrl = `https://127.0.0.1:${(listener.address() as AddressInfo).port}/internal.json`;
  });
  afterAll(() => new Promise<void>((resolve) => listener.close(() => resolve())));

  it.each(['sector_identifier_uri', 'jwks_uri'])('refuses %s with invalid_client_metadata and opens no connection', async (field) => {
    const before = connections;
    const response = await rawRegister({ ...NATIVE, [field]: internalUrl });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: 'invalid_client_metadata',
      error_description: `${field} is not supported: the service fetches no URL a registrant names`,
    });
    expect(connections).toBe(before);
  });

  it('the provider itself opens no connection, whatever client metadata asks for one', async () => {
    const provider = await getProvider();
    const before = connections;
    const metadata = {
      client_id: 'static-with-sector',
      token_endpoint_auth_method: 'none' as const,
      redirect_uris: ['https://app.example/cb'],
      sector_identifier_uri: internalUrl,
    };
    await expect(provider.Client.validate(metadata)).rejects.toMatchObject({
      error: 'invalid_client_metadata',
      error_description: 'could not load sector_identifier_uri response',
    });
    expect(connections).toBe(before);
  });
});
