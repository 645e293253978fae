import { z } from 'zod';
import { resourceContract } from '@/lib/contract/wire';

/** The OpenAPI document itself: its answer is the document (openapi.ts), described here only as an object. */
export const getOpenApiDocument = resourceContract({
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
});
