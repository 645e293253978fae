import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { getConfig } from '@/lib/config';
import { serviceError } from '@/lib/contract/errors';
import type { Keyset, PageRequest } from '@/lib/contract/operation';

/**
 * Opaque keyset cursors: `base64url(created_at_ms:id).mac`, where the MAC (HMAC-SHA256 under a key
 * derived from SESSION_SECRET) also covers the operation, so a cursor can be neither forged nor
 * replayed against another collection.
 */
export const MAX_PAGE_LIMIT = 100;

function mac(operationId: string, payload: string): Buffer {
  return createHmac('sha256', getConfig().sessionSecret).update(`cursor:${operationId}:${payload}`).digest().subarray(0, 16);
}

export function encodeCursor(operationId: string, keyset: Keyset): string {
  const payload = Buffer.from(`${keyset.createdAt.getTime()}:${keyset.id}`).toString('base64url');
  return `${payload}.${mac(operationId, payload).toString('base64url')}`;
}

function invalid(detail: string): never {
  throw serviceError('invalid_pagination', detail);
}

export function decodeCursor(operationId: string, cursor: string): Keyset {
  const [payload, signature, extra] = cursor.split('.');
  if (!payload || !signature || extra !== undefined || cursor.length > 256) invalid('The cursor is not one this service issued.');
  const given = Buffer.from(signature, 'base64url');
  const expected = mac(operationId, payload);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) invalid('The cursor is not one this service issued.');
  const decoded = Buffer.from(payload, 'base64url').toString('utf8');
  const separator = decoded.indexOf(':');
  const ms = Number(decoded.slice(0, separator));
  const id = decoded.slice(separator + 1);
  if (separator < 1 || !Number.isSafeInteger(ms) || id.length === 0) invalid('The cursor is malformed.');
  return { createdAt: new Date(ms), id };
}

const limitSchema = z.coerce.number().int().min(1).max(MAX_PAGE_LIMIT);

/** `limit` 1-100 (default 100) and `cursor`; anything else is 400 invalid_pagination. */
export function parsePageRequest(operationId: string, search: URLSearchParams): PageRequest {
  const rawLimit = search.get('limit');
  let limit = MAX_PAGE_LIMIT;
  if (rawLimit !== null) {
    const parsed = limitSchema.safeParse(rawLimit.trim() === '' ? Number.NaN : rawLimit);
    if (!parsed.success) invalid(`limit must be an integer from 1 to ${MAX_PAGE_LIMIT}.`);
    limit = parsed.data;
  }
  const cursor = search.get('cursor');
  return { limit, after: cursor === null ? null : decodeCursor(operationId, cursor) };
}
