import { NextRequest } from 'next/server';
import { afterEach, describe, expect, it } from 'vitest';
import { proxy } from '@/proxy';
import { withEnv } from '@/tests/setup/state';
import { newNonce, pageContentSecurityPolicy, pageSecurityHeaders } from './security-headers';

const policy = { nonce: 'bm9uY2U=', path: '/sign-in', https: false, development: false };

function directives(csp: string): Record<string, string> {
  return Object.fromEntries(csp.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1).join(' ')]));
}

let restore: (() => void) | null = null;
afterEach(() => {
  restore?.();
  restore = null;
});

describe('page security headers', () => {
  it('allow only nonced scripts and styles, no plugins, no <base>, no foreign forms, no framing', () => {
    expect(directives(pageContentSecurityPolicy(policy))).toEqual({
      'default-src': "'self'",
      'script-src': "'self' 'nonce-bm9uY2U=' 'strict-dynamic'",
      'style-src': "'self' 'nonce-bm9uY2U='",
      'object-src': "'none'",
      'base-uri': "'none'",
      'form-action': "'self'",
      'frame-ancestors': "'none'",
    });
  });

  it('let the consent decision form follow its redirects to the client, and nothing else', () => {
    expect(directives(pageContentSecurityPolicy({ ...policy, path: '/consent/abc' }))['form-action']).toBe("'self' https: http:");
    expect(directives(pageContentSecurityPolicy({ ...policy, path: '/consent' }))['form-action']).toBe("'self'");
    expect(directives(pageContentSecurityPolicy({ ...policy, path: '/account' }))['form-action']).toBe("'self'");
  });

  // ASVS V12.2.1
  it('send HSTS and upgrade stray http URLs only when BASE_URL is https', () => {
    expect(pageSecurityHeaders(policy)['Strict-Transport-Security']).toBeUndefined();
    expect(pageContentSecurityPolicy(policy)).not.toContain('upgrade-insecure-requests');
    const https = { ...policy, https: true };
    expect(pageSecurityHeaders(https)['Strict-Transport-Security']).toBe('max-age=31536000; includeSubDomains');
    expect(pageContentSecurityPolicy(https)).toContain('upgrade-insecure-requests');
  });

  it('relax scripts and styles only for `next dev`', () => {
    const dev = directives(pageContentSecurityPolicy({ ...policy, development: true }));
    expect(dev['script-src']).toContain("'unsafe-eval'");
    expect(dev['style-src']).toBe("'self' 'unsafe-inline'");
  });

  it('mint 128-bit nonces, a new one each time', () => {
    const nonces = new Set(Array.from({ length: 100 }, newNonce));
    expect(nonces.size).toBe(100);
    for (const nonce of nonces) expect(Buffer.from(nonce, 'base64')).toHaveLength(16);
  });
});

describe('proxy', () => {
  it('puts the policy on the response and, for Next to find the nonce, on the request', () => {
    const response = proxy(new NextRequest('http://localhost:3000/sign-in'));
    const csp = response.headers.get('content-security-policy')!;
    expect(csp).toMatch(/'nonce-[A-Za-z0-9+/=]{24}'/);
    expect(response.headers.get('x-middleware-request-content-security-policy')).toBe(csp);
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('strict-transport-security')).toBeNull();
  });

  it('sends HSTS when BASE_URL is https', () => {
    restore = withEnv({ BASE_URL: 'https://id.example.com' });
    const response = proxy(new NextRequest('https://id.example.com/'));
    expect(response.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
    expect(response.headers.get('content-security-policy')).toContain('upgrade-insecure-requests');
  });
});
