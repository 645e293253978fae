import { z } from 'zod';
import { defineOperation, type AnyOperation } from '@/lib/contract/operation';

const openapiOp = defineOperation({
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
  // Imported lazily: the document is built from the registry, which includes this operation.
  handler: async () => (await import('./openapi-document')).openApiDocument(),
});

export const openapiOperations: AnyOperation[] = [openapiOp];
