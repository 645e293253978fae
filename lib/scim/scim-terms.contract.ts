/** What every SCIM operation declares: its auth term, origin rule, limits and the shapes they share. */
import { z } from 'zod';

/** ARCHITECTURE.md, Limits: SCIM bodies up to 1 MiB. */
export const SCIM_MAX_BODY_BYTES = 1024 * 1024;

export const SCIM = {
  tag: 'SCIM 2.0',
  auth: { kind: 'scim_token' },
  origin: 'none',
  idempotency: 'none',
  maxBodyBytes: SCIM_MAX_BODY_BYTES,
  subjectRateLimit: { bucket: 'scim', subject: ({ actor }: { actor: { tokenId: string } }) => actor.tokenId },
} as const;

/** A SCIM resource or message (attribute names are case-insensitive: read by the SCIM rules, not here). */
export const scimResource = z.record(z.string(), z.unknown());
export const scimBody = z.record(z.string(), z.unknown());

/** `attributes` / `excludedAttributes` (RFC 7644 §3.4.2.5). */
export const resourceQuery = z.object({
  attributes: z.string().max(1024).optional(),
  excludedAttributes: z.string().max(1024).optional(),
});

/** A list's window and filter; count above the maximum reads as the maximum, startIndex below 1 as 1. */
export const listQuery = resourceQuery.extend({
  filter: z.string().max(1024).optional(),
  startIndex: z.coerce.number().int().optional(),
  count: z.coerce.number().int().optional(),
});

export const listAnswer = z.object({
  schemas: z.array(z.string()),
  totalResults: z.number().int(),
  itemsPerPage: z.number().int(),
  startIndex: z.number().int(),
  Resources: z.array(scimResource),
});
