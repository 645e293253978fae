/**
 * What the SCIM operations answer, shared by Users and Groups: a resource with its ETag (or 304 when
 * the client's copy is current), and a page of a list (startIndex one-based, count bounded).
 */
import { result, type HandlerResult } from '@/lib/contract/operation';
import { SCIM_COUNT } from './discovery';
import { parseFilter, type EqualityFilter, type FilterAttribute } from './filter';
import { project } from './projection';
import { scimInvalid } from './scim-errors';
import { isNotModified } from './versions';

export interface ListQuery {
  filter?: string;
  startIndex?: number;
  count?: number;
  attributes?: string;
  excludedAttributes?: string;
}

export interface Preconditions {
  ifMatch: string | null;
  ifNoneMatch: string | null;
}

export interface Window {
  filter: EqualityFilter | null;
  /** One-based, as the client sent it (below 1 reads as 1, RFC 7644 §3.4.2.4). */
  startIndex: number;
  count: number;
}

export function windowOf(query: ListQuery, attributes: readonly FilterAttribute[]): Window {
  let filter: EqualityFilter | null = null;
  if (query.filter !== undefined) {
    const parsed = parseFilter(query.filter, attributes);
    if (!parsed.ok) throw scimInvalid('invalidFilter', parsed.detail);
    filter = parsed.filter;
  }
  return {
    filter,
    startIndex: Math.max(1, query.startIndex ?? 1),
    count: Math.min(SCIM_COUNT.max, Math.max(0, query.count ?? SCIM_COUNT.default)),
  };
}

type Resource = Record<string, unknown>;

/** A resource read: 304 when If-None-Match names its version, else the (projected) resource and its ETag. */
export function readAnswer(found: { resource: Resource; etag: string }, query: ListQuery, preconditions: Preconditions): HandlerResult<Resource> {
  if (isNotModified(preconditions.ifNoneMatch, found.etag)) return result({}, { status: 304, headers: { ETag: found.etag } });
  return result(project(found.resource, query), { headers: { ETag: found.etag } });
}

/** A resource written: its ETag, and for a creation its Location (RFC 7644 §3.3). */
export function writeAnswer(written: { resource: Resource; etag: string }, created = false): HandlerResult<Resource> {
  const location = (written.resource.meta as { location: string }).location;
  return result(written.resource, { status: created ? 201 : 200, headers: { ETag: written.etag, ...(created ? { Location: location } : {}) } });
}
