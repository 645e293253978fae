/**
 * The public operation registry: every operation of every context, in one list. The route bindings,
 * the OpenAPI document, the auth matrix and the contract tests are all derived from it.
 */
import type { AnyOperation } from '@/lib/contract/operation';
import { statusOperations } from '@/lib/status/status.routes';
import { docsOperations } from '@/lib/docs/docs.routes';
import { openapiOperations } from './openapi.routes';

export const OPERATIONS: readonly AnyOperation[] = [...statusOperations, ...docsOperations, ...openapiOperations];

export function operationsAt(path: string): AnyOperation[] {
  return OPERATIONS.filter((op) => op.path === path);
}
