import { describe, expect, it } from 'vitest';
import { ServiceError } from '@/lib/contract/errors';
import { bindResource } from '@/lib/contract/operation';
import { resourceContract } from '@/lib/contract/wire';
import { z } from 'zod';
import { assertSupportedVersion, versionHeaders } from './versioning';

const op = (lifecycle?: { deprecatedAt?: Date; sunsetAt?: Date }) =>
  bindResource(
    resourceContract({
      id: 'versioned',
      method: 'GET',
      path: '/api/v1/versioned',
      tag: 'Test',
      summary: 'versioned',
      auth: { kind: 'public' },
      origin: 'none',
      idempotency: 'none',
      successStatus: 200,
      response: z.object({}),
      lifecycle,
    }),
    async () => ({}),
  );

describe('versioning', () => {
  it('accepts no header or v1 and refuses anything else', () => {
    expect(() => assertSupportedVersion(new Headers())).not.toThrow();
    expect(() => assertSupportedVersion(new Headers({ 'x-service-api-version': 'v1' }))).not.toThrow();
    for (const bad of ['v2', 'v0', '1', 'V1 ', '']) {
      try {
        assertSupportedVersion(new Headers({ 'x-service-api-version': bad }));
        expect.unreachable(`accepted ${bad}`);
      } catch (error) {
        expect((error as ServiceError).code).toBe('unsupported_api_version');
      }
    }
  });

  it('advertises the current lifecycle', () => {
    expect(versionHeaders(op())).toEqual({ 'X-Service-API-Version': 'v1', 'X-Service-API-Lifecycle': 'current' });
  });

  it('adds Deprecation (RFC 9745) and Sunset (RFC 8594) headers to operations being retired', () => {
    const deprecatedAt = new Date('2026-12-01T00:00:00Z');
    const sunsetAt = new Date('2027-06-01T00:00:00Z');
    const headers = versionHeaders(op({ deprecatedAt, sunsetAt }));
    expect(headers['X-Service-API-Lifecycle']).toBe('sunset-scheduled');
    expect(headers['Deprecation']).toBe(`@${deprecatedAt.getTime() / 1000}`);
    expect(headers['Sunset']).toBe('Tue, 01 Jun 2027 00:00:00 GMT');
    expect(headers['Link']).toContain('/docs/versioning');
    expect(versionHeaders(op({ deprecatedAt }))['X-Service-API-Lifecycle']).toBe('deprecated');
  });
});
