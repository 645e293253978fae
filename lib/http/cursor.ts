import { z } from 'zod';
import { decodeCursor, invalidPagination, MAX_PAGE_LIMIT } from '@/lib/contract/cursor';
import type { PageRequest } from '@/lib/contract/operation';

/** The codec is shared with the MCP tools (lib/contract/cursor.ts); the query parameters are the API's. */
export { decodeCursor, encodeCursor, MAX_PAGE_LIMIT } from '@/lib/contract/cursor';

const limitSchema = z.coerce.number().int().min(1).max(MAX_PAGE_LIMIT);

/** `limit` 1-100 (default 100) and `cursor`; anything else is 400 invalid_pagination. */
export function parsePageRequest(operationId: string, search: URLSearchParams): PageRequest {
  const rawLimit = search.get('limit');
  let limit = MAX_PAGE_LIMIT;
  if (rawLimit !== null) {
    const parsed = limitSchema.safeParse(rawLimit.trim() === '' ? Number.NaN : rawLimit);
    if (!parsed.success) invalidPagination(`limit must be an integer from 1 to ${MAX_PAGE_LIMIT}.`);
    limit = parsed.data;
  }
  const cursor = search.get('cursor');
  return { limit, after: cursor === null ? null : decodeCursor(operationId, cursor) };
}
