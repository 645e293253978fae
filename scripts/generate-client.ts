/**
 * Writes the generated part of the TypeScript client (clients/typescript/src/operations.ts,
 * src/catalogue.ts and METHODS.md) from the operation registry. A test fails when the committed copies
 * differ from what the registry produces (tests/client/generated-client.test.ts).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { renderClient, REPOSITORY } from './client/render-client';

async function main() {
  for (const [file, content] of Object.entries(await renderClient())) {
    writeFileSync(path.join(REPOSITORY, file), content);
    console.log(`wrote ${file}`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
