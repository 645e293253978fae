/**
 * The operator's half of account deletion (docs/decisions.md, Deletion requests):
 *
 *   npm run privacy:review                                   pending requests older than 7 days
 *   npm run privacy:review -- --older-than-days 0            every pending request
 *   npm run privacy:review -- --complete <id> --operator "Jane Doe"
 *
 * Completing erases the person in every context and cannot be undone; it is refused (with the
 * organizations concerned) while the person is an organization's only owner. In embedded mode, run it
 * only while the service is stopped (PGlite has no cross-process lock).
 */
import { randomUUID } from 'node:crypto';
import { closeDb } from '../lib/db';
import { completeDeletion, reviewQueue } from '../lib/privacy';

function option(args: string[], name: string): string | undefined {
  const index = args.indexOf(name);
  return index >= 0 ? args[index + 1] : undefined;
}

async function main() {
  const args = process.argv.slice(2);
  const now = new Date();
  const id = option(args, '--complete');
  if (id) {
    const operator = option(args, '--operator');
    if (!operator) throw new Error('Completing a deletion request names its operator: --operator "<name>"');
    await completeDeletion(id, operator, now, `privacy-review-${randomUUID()}`);
    console.log(`deletion request ${id}: completed by ${operator}; the account's data is erased`);
  } else {
    const days = Number(option(args, '--older-than-days') ?? 7);
    if (!Number.isFinite(days) || days < 0) throw new Error('--older-than-days takes a number of days (0 or more)');
    const queue = await reviewQueue(days, now);
    console.log(`${queue.length} pending deletion request(s) older than ${days} day(s)`);
    for (const item of queue) {
      const blocked = item.blocked_by.map((b) => `only owner of "${b.organization_name}" (${b.organization_id})`).join('; ');
      console.log(`${item.id}  requested ${item.requested_at}${blocked ? `  BLOCKED: ${blocked}` : ''}`);
    }
  }
  await closeDb();
}

main().catch((error: unknown) => {
  const blockers = (error as { extras?: { blocked_by?: unknown } }).extras?.blocked_by;
  console.error(error instanceof Error ? error.message : error, blockers ? JSON.stringify(blockers) : '');
  process.exit(1);
});
