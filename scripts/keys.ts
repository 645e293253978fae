/**
 * The operator's signing-key roll-over (docs/decisions.md, "Signing keys and their roll-over"):
 *
 *   npm run keys -- status            the keys, and when the retiring ones may go
 *   npm run keys -- rotate            new active keys; the previous ones stay published as retiring
 *   npm run keys -- retire            retiring keys leave the JWKS (refused while a token they signed may be valid)
 *   npm run keys -- retire --force    at once (a leaked key): every token it signed stops verifying
 *
 * Each instance reads the keys when it starts: restart every instance after `rotate` (they then sign
 * with the new keys) and after `retire`. In embedded mode, run it only while the service is stopped.
 */
import { closeDb } from '../lib/db';
import { describeKeys, ensureKeys, retireRetiringKeys, retirementDueAt, rotateKeys } from '../lib/oidc';

async function main() {
  const [command, flag] = process.argv.slice(2);
  const now = new Date();
  // The keys the service makes on its first start, if it has not started yet.
  await ensureKeys(now);
  if (command === 'rotate') {
    await rotateKeys(now);
    console.log('New signing and cookie keys are active; the previous ones are retiring and stay published.');
    console.log('Restart every instance now, so that they sign with the new keys.');
    console.log(`Retire the previous keys (npm run keys -- retire) after ${(await retirementDueAt())?.toISOString()}.`);
  } else if (command === 'retire') {
    await retireRetiringKeys(now, { force: flag === '--force' });
    console.log('The retiring keys are retired: restart every instance so that none accepts them any more.');
  } else if (command === 'status' || command === undefined) {
    for (const key of await describeKeys())
      console.log(`${key.kid}  ${key.use.padEnd(7)}  ${(key.alg ?? '').padEnd(5)}  ${key.status.padEnd(8)}  created ${key.createdAt}`);
    const due = await retirementDueAt();
    if (due) console.log(`Retiring keys may be retired after ${due.toISOString()}.`);
  } else {
    throw new Error(`unknown command ${command}: status, rotate or retire [--force]`);
  }
  await closeDb();
}

main().catch(async (error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  await closeDb();
  process.exit(1);
});
