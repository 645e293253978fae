import { buildOpenApiDocument } from './openapi';
import { OPERATIONS } from './registry';

let cached: Record<string, unknown> | null = null;

/** The served document: a pure function of the registry, so it is built once per process. */
export function openApiDocument(): Record<string, unknown> {
  cached ??= buildOpenApiDocument(OPERATIONS);
  return cached;
}
