/**
 * Operation paths as Next routes them, for code that routes before Next (the front door): a
 * `{param}` matches one segment, and literal paths win over parameterised ones.
 */
export interface PathRoute {
  path: string;
  pattern: RegExp;
  /** The path's parameter names, in the order of the pattern's groups. */
  names: string[];
}

export function pathRoutes(paths: Iterable<string>): PathRoute[] {
  return [...new Set(paths)]
    .sort((a, b) => Number(a.includes('{')) - Number(b.includes('{')))
    .map((path) => ({
      path,
      pattern: new RegExp(
        `^${path
          .split(/\{\w+\}/)
          .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
          .join('([^/]+)')}$`,
      ),
      names: [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!),
    }));
}

/** The route's parameters in `pathname`, or null when the route does not match it. */
export function paramsAt(route: PathRoute, pathname: string): Record<string, string> | null {
  const match = route.pattern.exec(pathname);
  return match ? Object.fromEntries(route.names.map((name, i) => [name, decodeURIComponent(match[i + 1]!)])) : null;
}
