import { vi } from 'vitest';
import { getDb } from '@/lib/db';

/**
 * Records the SQL statements this process sends to its test database from now on, Postgres
 * (postgres-js `unsafe`) or PGlite (`query`), by watching the driver function Drizzle calls: every
 * statement still runs on the real database. `stop()` ends the recording.
 */
export async function recordStatements(): Promise<{ statements: string[]; stop: () => void }> {
  const client = ((await getDb()) as unknown as { $client: Record<string, (...args: unknown[]) => unknown> }).$client;
  const method = typeof client.unsafe === 'function' ? 'unsafe' : 'query';
  const statements: string[] = [];
  const original = client[method]!;
  const spy = vi.spyOn(client, method).mockImplementation(function (this: unknown, ...args: unknown[]) {
    statements.push(String(args[0]));
    return original.apply(this, args);
  });
  return { statements, stop: () => spy.mockRestore() };
}
