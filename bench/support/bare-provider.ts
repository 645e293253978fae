/**
 * The benchmark's reference point: node-oidc-provider with the very configuration the app uses
 * (`createProvider`: same Drizzle adapter on the same Postgres, same keys, scopes, TTLs, policies),
 * served by a plain Node HTTP server. No Next.js, no pipeline, no Web-to-Node bridge.
 *
 *   BASE_URL=http://localhost:3401 DATABASE_URL=... (and the app's secrets) npx tsx bench/support/bare-provider.ts
 */
import { createServer } from 'node:http';
import { getConfig } from '@/lib/config';
import { createProvider } from '@/lib/oidc/provider';

async function main() {
  const { baseUrl } = getConfig();
  const provider = await createProvider();
  const handler = provider.callback();
  createServer(handler).listen(Number(new URL(baseUrl).port), () => console.log(`bare provider on ${baseUrl}`));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
