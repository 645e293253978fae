import { describe, expect, it } from 'vitest';
import { providerCookieNames, providerCookies, withRootPath } from './provider-cookies';

describe('provider cookies', () => {
  // ASVS V3.3.1
  it('are __Host- over https and keep the usable plain names on http localhost (a browser drops __Host- without Secure)', () => {
    expect(Object.values(providerCookieNames(true)).every((name) => name.startsWith('__Host-'))).toBe(true);
    expect(Object.values(providerCookieNames(false)).some((name) => name.startsWith('__'))).toBe(false);
    const config = providerCookies(true, ['k']);
    expect(config.long).toMatchObject({ httpOnly: true, sameSite: 'lax', path: '/' });
    expect(config.short).toMatchObject({ httpOnly: true, sameSite: 'lax', path: '/' });
  });

  it('moves the resume cookie and its signature to Path=/, and nothing else', () => {
    const lines = [
      '__Host-oidc_resume=abc; path=/oauth/authorize/abc; expires=Tue, 24 Nov 2026 14:09:14 GMT; samesite=lax; secure; httponly',
      '__Host-oidc_resume.sig=xyz; path=/oauth/authorize/abc; samesite=lax; secure; httponly',
      'other=1; path=/somewhere',
    ];
    expect(withRootPath(lines, ['__Host-oidc_resume'])).toEqual([
      '__Host-oidc_resume=abc; path=/; expires=Tue, 24 Nov 2026 14:09:14 GMT; samesite=lax; secure; httponly',
      '__Host-oidc_resume.sig=xyz; path=/; samesite=lax; secure; httponly',
      'other=1; path=/somewhere',
    ]);
  });
});
