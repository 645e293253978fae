/**
 * Paging for the list tools: the API's keyset cursors (lib/contract/cursor.ts), bound to the tool, so
 * an agent pages exactly as an API client does (`limit`, then `cursor` = the previous `next_cursor`).
 */
import { z } from 'zod';
import { decodeCursor, encodeCursor, MAX_PAGE_LIMIT } from '@/lib/contract/cursor';
import type { Page, PageRequest } from '@/lib/contract/operation';

/** Small pages by default: every item ends up in the agent's context. */
const DEFAULT_LIMIT = 20;

export const pageInput = {
  limit: z.number().int().min(1).max(MAX_PAGE_LIMIT).optional().describe(`How many items (1-${MAX_PAGE_LIMIT}, default ${DEFAULT_LIMIT})`),
  cursor: z.string().max(256).optional().describe('next_cursor of the previous page, unchanged'),
};

export const pageOutput = { has_more: z.boolean(), next_cursor: z.string().nullable() };

const cursorScope = (tool: string) => `mcp:${tool}`;

export function pageRequest(tool: string, args: { limit?: number; cursor?: string }): PageRequest {
  return { limit: args.limit ?? DEFAULT_LIMIT, after: args.cursor === undefined ? null : decodeCursor(cursorScope(tool), args.cursor) };
}

export function pageAnswer<T>(tool: string, page: Page<T>): { items: T[]; has_more: boolean; next_cursor: string | null } {
  return { items: page.items, has_more: page.hasMore, next_cursor: page.hasMore && page.last ? encodeCursor(cursorScope(tool), page.last) : null };
}
