/**
 * Delegated operations (node-oidc-provider) declare no input schema of ours: the provider validates
 * its protocol. Their inputs are drawn from the parameter names of the OAuth/OIDC specifications
 * (RFC 6749, 7009, 7591, 7636, 8707, OIDC Core), written as a JSON Schema so the same bad-input
 * classes apply to them as to our own operations. Coherent requests ("cores") are mixed in so a broken
 * value often arrives inside an otherwise well-formed protocol request and reaches the provider's
 * lookups (where NUL characters used to fail, item 6).
 */
import { SCOPE_TABLE } from '@/lib/oidc';
import type { JsonSchema } from './schema-arbitrary';

export interface ProtocolFixtures {
  baseUrl: string;
  clientId: string;
  redirectUri: string;
}

const anyOf = (values: string[]): JsonSchema => ({ anyOf: [{ enum: values }, { type: 'string', maxLength: 64 }] });

/** Every parameter optional: the provider, not we, decides what a request needs. */
export function protocolSchema(f: ProtocolFixtures): JsonSchema {
  const scopes = SCOPE_TABLE.map((s) => s.scope);
  return {
    type: 'object',
    properties: {
      client_id: anyOf([f.clientId]),
      redirect_uri: anyOf([f.redirectUri, `${f.baseUrl}/callback`]),
      redirect_uris: { type: 'array', items: anyOf([f.redirectUri, 'https://app.example.com/cb']) },
      response_type: anyOf(['code', 'token', 'id_token', 'code id_token']),
      response_mode: anyOf(['query', 'fragment', 'form_post']),
      scope: anyOf([scopes.join(' '), 'openid', 'offline_access', ...scopes.slice(2, 5)]),
      state: anyOf(['st']),
      nonce: anyOf(['n-0S6_WzA2Mj']),
      prompt: anyOf(['none', 'login', 'consent', 'select_account']),
      max_age: anyOf(['0', '60', '-1']),
      code_challenge: anyOf(['E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM']),
      code_challenge_method: anyOf(['S256', 'plain']),
      resource: anyOf([f.baseUrl, `${f.baseUrl}/mcp`, `${f.baseUrl}/mcp/`]),
      interaction_id: anyOf(['abc']),
      grant_type: anyOf(['authorization_code', 'refresh_token', 'client_credentials', 'password']),
      code: anyOf(['SplxlOBeZQQYbYS6WxSbIA']),
      code_verifier: anyOf(['dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk']),
      refresh_token: anyOf(['tGzv3JOkF0XG5Qx2TlKWIA']),
      token: anyOf(['45ghiukldjahdnhzdauz']),
      token_type_hint: anyOf(['access_token', 'refresh_token']),
      client_secret: anyOf(['secret']),
      client_assertion_type: anyOf(['urn:ietf:params:oauth:client-assertion-type:jwt-bearer']),
      application_type: anyOf(['native', 'web']),
      token_endpoint_auth_method: anyOf(['none', 'client_secret_basic']),
      client_name: anyOf(['Probe']),
    },
  };
}

/** Well-formed requests of each protocol step, to be broken one parameter at a time. */
export function protocolCores(f: ProtocolFixtures): Record<string, string | string[]>[] {
  return [
    {
      client_id: f.clientId,
      redirect_uri: f.redirectUri,
      response_type: 'code',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
      scope: 'openid identity.profile.read',
      state: 'st',
    },
    {
      grant_type: 'authorization_code',
      client_id: f.clientId,
      redirect_uri: f.redirectUri,
      code: 'SplxlOBeZQQYbYS6WxSbIA',
      code_verifier: 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk',
    },
    { grant_type: 'refresh_token', client_id: f.clientId, refresh_token: 'tGzv3JOkF0XG5Qx2TlKWIA' },
    { token: '45ghiukldjahdnhzdauz', token_type_hint: 'access_token', client_id: f.clientId },
    { application_type: 'native', token_endpoint_auth_method: 'none', redirect_uris: [f.redirectUri], client_name: 'Probe' },
  ];
}
