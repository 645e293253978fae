import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { STATUS_PATHS } from '@/lib/status/status.test-paths';
import { renderGeneratedDocs } from './generated-docs';
import { buildOpenApiDocument } from './openapi';
import { OPERATIONS } from './registry';

type OperationObject = { operationId: string; security: unknown[]; responses: Record<string, unknown>; 'x-variants'?: OperationObject[] };
type Doc = { openapi: string; paths: Record<string, Record<string, OperationObject>> };

describe('generated contract documents', () => {
  it.each(Object.entries(renderGeneratedDocs()))('%s is up to date (run npm run docs:generate)', (file, content) => {
    expect(readFileSync(path.resolve(__dirname, '../..', file), 'utf8')).toBe(content);
  });

  it('describes every registry operation in OpenAPI 3.1, with its security and error statuses', () => {
    const doc = buildOpenApiDocument(OPERATIONS) as Doc;
    expect(doc.openapi).toBe('3.1.0');
    for (const op of OPERATIONS) {
      const main = doc.paths[op.path]?.[op.method.toLowerCase()];
      // A variant is documented inside the operation it shares its method and path with.
      const entry = op.kind === 'delegated' && op.variant ? main?.['x-variants']?.find((v) => v.operationId === op.id) : main;
      expect(entry?.operationId, `${op.method} ${op.path}`).toBe(op.id);
      expect(Object.keys(entry!.responses)).toContain(String(op.successStatus));
      expect(Object.keys(entry!.responses)).toContain('400');
    }
    for (const path of [...STATUS_PATHS]) expect(doc.paths[path]?.get, path).toBeDefined();
    const askOp = doc.paths['/api/docs/ask']!.post!;
    expect(Object.keys(askOp.responses).sort()).toEqual(['200', '400', '403', '413', '415', '429', '502', '503', '504']);
  });
});
