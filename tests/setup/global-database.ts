/**
 * With DATABASE_URL set (CI: a fresh database on the real server), migrate it once; every test file
 * then clones it as a template into its own database. Without it, every test file runs on its own
 * in-memory PGlite.
 */
import type { TestProject } from 'vitest/node';

export default async function setup(project: TestProject) {
  const url = process.env.DATABASE_URL;
  if (!url || url === 'memory:') {
    project.provide('templateDatabaseUrl', null);
    return;
  }
  const { applyMigrations } = await import('../../lib/db/migrate');
  await applyMigrations({ driver: 'postgres', url });
  project.provide('templateDatabaseUrl', url);
}

declare module 'vitest' {
  export interface ProvidedContext {
    templateDatabaseUrl: string | null;
  }
}
