import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { afterAll, beforeAll, inject } from 'vitest';
import { resetProcessState, TEST_ENV } from './state';

const template = inject('templateDatabaseUrl');
const dataDir = mkdtempSync(path.join(tmpdir(), 'idsvc-test-'));
let databaseName: string | null = null;

beforeAll(async () => {
  Object.assign(process.env, TEST_ENV, { DATA_DIR: dataDir });
  if (template) {
    const admin = new URL(template);
    const templateName = admin.pathname.slice(1);
    databaseName = `${templateName}_f${process.pid}_${Date.now().toString(36)}`;
    const sql = postgres(template.replace(/\/[^/]*$/, '/postgres'), { max: 1, onnotice: () => {} });
    await sql.unsafe(`create database "${databaseName}" template "${templateName}"`);
    await sql.end();
    admin.pathname = `/${databaseName}`;
    process.env.DATABASE_URL = admin.toString();
  } else {
    process.env.DATABASE_URL = 'memory:';
  }
  resetProcessState();
});

afterAll(async () => {
  await resetProcessState({ closeDatabase: true });
  rmSync(dataDir, { recursive: true, force: true });
  if (template && databaseName) {
    const sql = postgres(template.replace(/\/[^/]*$/, '/postgres'), { max: 1, onnotice: () => {} });
    await sql.unsafe(`drop database if exists "${databaseName}" with (force)`);
    await sql.end();
  }
});
