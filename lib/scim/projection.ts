/**
 * `attributes` and `excludedAttributes` (RFC 7644 §3.4.2.5), at the level of top-level attributes: a
 * requested `name.givenName` or `emails[type eq "work"]` returns its whole attribute. `id` and
 * `schemas` are always returned. Names compare regardless of case.
 */
const ALWAYS = new Set(['id', 'schemas']);

function topLevelNames(list: string | undefined): Set<string> | null {
  if (!list) return null;
  const names = list
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item.length > 0)
    // A schema-qualified name keeps its last segment; sub-attributes and value filters their parent.
    .map((item) =>
      item
        .replace(/^urn:.*:/i, '')
        .split(/[.[]/)[0]!
        .toLowerCase(),
    );
  return names.length > 0 ? new Set(names) : null;
}

export function project<R extends Record<string, unknown>>(resource: R, query: { attributes?: string; excludedAttributes?: string }): Partial<R> {
  const included = topLevelNames(query.attributes);
  const excluded = topLevelNames(query.excludedAttributes);
  if (!included && !excluded) return resource;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(resource)) {
    const name = key.toLowerCase();
    const keep = ALWAYS.has(name) || (included ? included.has(name) : !excluded!.has(name));
    if (keep) out[key] = value;
  }
  return out as Partial<R>;
}
