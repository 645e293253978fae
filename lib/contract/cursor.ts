/**
 * Opaque keyset cursors: `base64url(created_at_ms:id).mac`, where the MAC (HMAC-SHA256 under a key
 * derived from SESSION_SECRET) also covers the operation, so a cursor can be neither forged nor
 * replayed against another collection. Shared by the API's collections (lib/http/cursor.ts) and the
 * MCP tools, which page through the same keysets.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { getConfig } from '@/lib/config';
import { serviceError } from './errors';
import type { Keyset } from './operation';

export const MAX_PAGE_LIMIT = 100;

function mac(operationId: string, payload: string): Buffer {
  return createHmac('sha256', getConfig().sessionSecret).update(`cursor:${operationId}:${payload}`).digest().subarray(0, 16);
}

export function encodeCursor(operationId: string, keyset: Keyset): string {
  const payload = Buffer.from(`${keyset.createdAt.getTime()}:${keyset.id}`).toString('base64url');
  return `${payload}.${mac(operationId, payload).toString('base64url')}`;
}

export function invalidPagination(detail: string): never {
  throw serviceError('invalid_pagination', detail);
}

export function decodeCursor(operationId: string, cursor: string): Keyset {
  const [payload, signature, extra] = cursor.split('.');
  if (!payload || !signature || extra !== undefined || cursor.length > 256) invalidPagination('The cursor is not one this service issued.');
  const given = Buffer.from(signature, 'base64url');
  const expected = mac(operationId, payload);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) invalidPagination('The cursor is not one this service issued.');
  const decoded = Buffer.from(payload, 'base64url').toString('utf8');
  const separator = decoded.indexOf(':');
  const ms = Number(decoded.slice(0, separator));
  const id = decoded.slice(separator + 1);
  if (separator < 1 || !Number.isSafeInteger(ms) || id.length === 0) invalidPagination('The cursor is malformed.');
  return { createdAt: new Date(ms), id };
}
