/**
 * Writes the generated contract documents: docs/openapi.json and docs/auth-matrix.md. A test fails
 * when the committed copies differ from what the registry produces.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { renderGeneratedDocs } from '../lib/http/generated-docs';

const root = path.resolve(__dirname, '..');
for (const [file, content] of Object.entries(renderGeneratedDocs())) {
  writeFileSync(path.join(root, file), content);
  console.log(`wrote ${file}`);
}
