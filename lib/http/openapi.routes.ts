import { z } from 'zod';
import { defineOperation, type AnyOperation } from '@/lib/contract/operation';
import { buildOpenApiDocument } from './openapi';

/**
 * The OpenAPI document operation. It describes the registry it belongs to, so the registry hands
 * itself in (no import circle: registry -> this file -> registry).
 */
export function openapiOperations(registry: () => readonly AnyOperation[]): AnyOperation[] {
  let cached: Record<string, unknown> | null = null;
  return [
    defineOperation({
      id: 'getOpenApiDocument',
      method: 'GET',
      path: '/api/openapi.json',
      tag: 'Runtime and status',
      summary: 'Machine-readable contract (OpenAPI 3.1), generated from the operation registry',
      auth: { kind: 'public' },
      origin: 'none',
      idempotency: 'none',
      successStatus: 200,
      cacheControl: 'public, max-age=300',
      response: z.record(z.string(), z.unknown()),
      // A pure function of the registry: built once per process.
      handler: async () => (cached ??= buildOpenApiDocument(registry())),
    }),
  ];
}
