import { z } from 'zod';

/**
 * The one rule for an instant on the wire: RFC 3339 (ISO 8601 with `Z` or an offset), in the years
 * 1 to 9999 once taken to UTC. The bound is the database's, not the format's: PostgreSQL has no year 0,
 * so `0000-02-29T20:00:00+10:00` (a valid string for the format and for a JS Date) failed in the query
 * and answered 500; the caller now gets a 400 naming the range.
 */
const INSTANT_YEARS = { first: 1, last: 9999 } as const;

const withinYears = (text: string) => {
  const year = new Date(text).getUTCFullYear();
  return year >= INSTANT_YEARS.first && year <= INSTANT_YEARS.last;
};

/** An instant kept as its text (for schemas that must stay plain strings, e.g. tool inputs). */
export const instantText = z.iso
  .datetime({ offset: true })
  .refine(withinYears, { message: `An instant between the years ${INSTANT_YEARS.first} and ${INSTANT_YEARS.last} (UTC).` });

/** An instant as a Date. */
export const instant = instantText.pipe(z.coerce.date());
