import * as client from 'openid-client';
import { expect, test } from '@playwright/test';

test('an independent relying party discovers the provider over HTTP and fetches its keys', async ({ baseURL }) => {
  const config = await client.discovery(new URL(baseURL!), 'discovery-only', undefined, undefined, { execute: [client.allowInsecureRequests] });
  const metadata = config.serverMetadata();
  expect(metadata.issuer).toBe(baseURL);
  expect(metadata.code_challenge_methods_supported).toEqual(['S256']);
  expect(metadata.pushed_authorization_request_endpoint).toBeUndefined();
  const jwks = await (await fetch(metadata.jwks_uri!)).json();
  expect(jwks.keys.length).toBeGreaterThanOrEqual(2);
});
