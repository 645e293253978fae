import { bindResource, type AnyOperation } from '@/lib/contract/operation';
import { buildOpenApiDocument } from './openapi';
import * as contract from './openapi.contract';

/**
 * The OpenAPI document operation. It describes the registry it belongs to, so the registry hands
 * itself in (no import circle: registry -> this file -> registry).
 */
export function openapiOperations(registry: () => readonly AnyOperation[]): AnyOperation[] {
  let cached: Record<string, unknown> | null = null;
  return [
    // A pure function of the registry: built once per process.
    bindResource(contract.getOpenApiDocument, async () => (cached ??= buildOpenApiDocument(registry()))),
  ];
}
