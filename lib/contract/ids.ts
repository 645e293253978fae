/**
 * The one rule for ids: every id this service issues is a UUID (randomUUID, gen_random_uuid), and a
 * value that is not one names nothing. The rule is zod's (RFC 9562 layout: version 1-8, variant
 * 8-b, plus the nil and max UUIDs), the one the OpenAPI document publishes for path and body ids.
 * Declarations use `uuid()`; code that meets an id outside a declared schema (a path segment before
 * parsing, a protocol parameter, a query filter, an approval id) asks `isUuid` before the value
 * reaches a uuid column, where PostgreSQL would answer a malformed one with an error, not a miss.
 */
import { z } from 'zod';

/** A schema for an id (a new one per use, so each declaration documents itself inline). */
export const uuid = () => z.uuid();

const UUID = uuid();

export function isUuid(value: string): boolean {
  return UUID.safeParse(value).success;
}
