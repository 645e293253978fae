/**
 * Operator review of application scopes (`npm run applications:certify -- <client_id> <scope...>`):
 * approves scopes the application requested and that wait for review (docs/decisions.md, Developer
 * applications). The provider's client record is rewritten in the same transaction, so the
 * application may request them from the next authorization on. In embedded mode, run it only while
 * the service is stopped (PGlite has no cross-process lock).
 */
import { closeDb } from '../lib/db';
import { approveApplicationScopes } from '../lib/developer';

async function main() {
  const [clientId, ...scopes] = process.argv.slice(2);
  if (!clientId || scopes.length === 0) throw new Error('usage: npm run applications:certify -- <client_id> <scope...>');
  const application = await approveApplicationScopes(clientId, scopes, new Date());
  console.log(`${application.client_id}: approved ${application.approved_scopes.join(' ')}`);
  await closeDb();
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
