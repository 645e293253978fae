import { and, desc, eq, lt, or, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Keyset, Page, PageRequest } from '@/lib/contract/operation';

/**
 * Keyset pagination (never OFFSET): rows strictly after the cursor in (created_at, id) descending
 * order. Callers fetch `limit + 1` rows and hand them to `toPage`, which decides `hasMore`.
 */
export function keysetAfter(createdAt: PgColumn, id: PgColumn, after: Keyset | null): SQL | undefined {
  if (!after) return undefined;
  return or(lt(createdAt, after.createdAt), and(eq(createdAt, after.createdAt), lt(id, after.id)));
}

export function keysetOrder(createdAt: PgColumn, id: PgColumn): SQL[] {
  return [desc(createdAt), desc(id)];
}

export function toPage<T extends { createdAt: Date; id: string }>(rows: T[], request: PageRequest): Page<T> {
  const hasMore = rows.length > request.limit;
  const items = hasMore ? rows.slice(0, request.limit) : rows;
  const last = items.at(-1);
  return { items, hasMore, last: hasMore && last ? { createdAt: last.createdAt, id: last.id } : null };
}
