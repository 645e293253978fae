import { getDb } from '@/lib/db';
import { addSecurityEvent, deleteSecurityEventCountsBefore, selectSecurityEventCounts } from './security-event-counts.repo';
import { shouldSweep } from './sweep';

const HOUR_MS = 3_600_000;
/** Counts hold no subject: a quarter of hourly rows per kind is cheap and covers seasonal baselines. */
const RETENTION_MS = 90 * 24 * HOUR_MS;

export const hourOf = (now: Date) => new Date(Math.floor(now.getTime() / HOUR_MS) * HOUR_MS);

/**
 * Counts one security event of `kind` in the current hour, in Postgres (shared by every instance, kept
 * across restarts: docs/decisions.md). Returns the hour's count so far, which the log line carries.
 */
export async function countSecurityEvent(kind: string, now: Date): Promise<number> {
  const db = await getDb();
  const count = await addSecurityEvent(db, kind, hourOf(now));
  if (shouldSweep()) await deleteSecurityEventCountsBefore(db, new Date(now.getTime() - RETENTION_MS));
  return count;
}

/** The hourly counts from `since` on, oldest first (operators: docs/security.md). */
export async function securityEventCounts(since: Date): Promise<{ kind: string; windowStart: Date; count: number }[]> {
  return selectSecurityEventCounts(await getDb(), since);
}
