import { describe, expect, it } from 'vitest';
import { ServiceError } from '@/lib/contract/errors';
import { decodeCursor, encodeCursor, parsePageRequest } from './cursor';

const keyset = { createdAt: new Date('2026-01-02T03:04:05.678Z'), id: '0b7c7f52-1f1e-4f7c-9d7e-3a1f7c1e2d3c' };

function codeOf(fn: () => unknown): string | null {
  try {
    fn();
    return null;
  } catch (error) {
    return error instanceof ServiceError ? error.code : 'unexpected';
  }
}

describe('opaque keyset cursors', () => {
  it('round-trip the keyset', () => {
    expect(decodeCursor('listThings', encodeCursor('listThings', keyset))).toEqual(keyset);
  });

  // ASVS V9.1.1
  it('are refused when tampered with, truncated or used on another collection', () => {
    const cursor = encodeCursor('listThings', keyset);
    const [payload, mac] = cursor.split('.');
    const forgedPayload = Buffer.from(`${Date.now()}:${keyset.id}`).toString('base64url');
    for (const bad of [`${forgedPayload}.${mac}`, `${payload}.${mac!.slice(0, -2)}AA`, payload!, `${cursor}.x`, '', 'not a cursor']) {
      expect(codeOf(() => decodeCursor('listThings', bad))).toBe('invalid_pagination');
    }
    expect(codeOf(() => decodeCursor('listOtherThings', cursor))).toBe('invalid_pagination');
  });

  it('parse limit 1-100 with default 100; anything else is invalid_pagination', () => {
    expect(parsePageRequest('op', new URLSearchParams())).toEqual({ limit: 100, after: null });
    expect(parsePageRequest('op', new URLSearchParams('limit=1')).limit).toBe(1);
    expect(parsePageRequest('op', new URLSearchParams('limit=100')).limit).toBe(100);
    for (const bad of ['0', '101', '-1', '2.5', 'ten', '']) {
      expect(codeOf(() => parsePageRequest('op', new URLSearchParams({ limit: bad })))).toBe('invalid_pagination');
    }
  });
});
