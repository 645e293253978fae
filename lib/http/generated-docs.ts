import { buildAuthMatrix } from './auth-matrix';
import { buildOpenApiDocument } from './openapi';
import { OPERATIONS } from './registry';

/** The committed, generated contract files (path relative to the repository -> content). */
export function renderGeneratedDocs(): Record<string, string> {
  return {
    'docs/openapi.json': `${JSON.stringify(buildOpenApiDocument(OPERATIONS), null, 2)}\n`,
    'docs/auth-matrix.md': buildAuthMatrix(OPERATIONS),
  };
}
