import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';

interface Journal {
  entries: { idx: number; tag: string }[];
}

const MIGRATIONS_DIR = path.join(process.cwd(), 'drizzle');

/** The migrations this build ships, hashed the way drizzle records them (sha256 of the SQL file). */
export function shippedMigrationHashes(): { tag: string; hash: string }[] {
  const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_DIR, 'meta', '_journal.json'), 'utf8')) as Journal;
  return journal.entries.map((entry) => ({
    tag: entry.tag,
    hash: createHash('sha256')
      .update(readFileSync(path.join(MIGRATIONS_DIR, `${entry.tag}.sql`), 'utf8'))
      .digest('hex'),
  }));
}
