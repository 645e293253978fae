/**
 * Strong ETags (RFC 9110 §8.8.3) and `meta.version` for SCIM resources: a digest of the resource's
 * representation, so the tag changes whenever anything a client can read changes, whoever changed it
 * (a directory, or an admin renaming the group in the console). Preconditions (spec, errors rule 5):
 * If-Match on writes (412 on mismatch, `*` for "any current version"), If-None-Match on reads (304).
 */
import { createHash } from 'node:crypto';
import { versionMismatch } from './scim-errors';

type Resource = Record<string, unknown> & { meta: Record<string, unknown> };

/** The resource with `meta.version` set, and the same value for the ETag header. */
export function versioned<R extends Resource>(resource: R): { resource: R; etag: string } {
  const digest = createHash('sha256').update(JSON.stringify(resource)).digest('base64url').slice(0, 27);
  const etag = `"${digest}"`;
  return { resource: { ...resource, meta: { ...resource.meta, version: etag } }, etag };
}

/** The entity tags a header lists (`*` stays `*`); weak tags never match a strong comparison. */
function tagsOf(header: string): string[] {
  return header
    .split(',')
    .map((tag) => tag.trim())
    .filter((tag) => tag.length > 0);
}

/** If-Match: refuses the write unless the current version is named (or `*`). Absent: no condition. */
export function assertIfMatch(ifMatch: string | null, current: string): void {
  if (ifMatch === null) return;
  const tags = tagsOf(ifMatch);
  if (!tags.includes('*') && !tags.includes(current)) throw versionMismatch();
}

/** If-None-Match on a read: true when the client's copy is current (answer 304). */
export function isNotModified(ifNoneMatch: string | null, current: string): boolean {
  if (ifNoneMatch === null) return false;
  const tags = tagsOf(ifNoneMatch).map((tag) => tag.replace(/^W\//, ''));
  return tags.includes('*') || tags.includes(current);
}
