/**
 * A PostgreSQL cluster of the test's own (initdb + pg_ctl on a free port), so the test can stop and
 * start its database server while the service runs, without touching the machine's shared server.
 * PostgreSQL refuses to run as root: as root, its commands run as the `postgres` system user.
 */
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { freePort } from './built-server';

export interface PostgresCluster {
  url: string;
  start(): void;
  stop(): void;
  destroy(): void;
}

function binDir(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  const found = versions.map((v) => path.join(root, v, 'bin')).find((dir) => existsSync(path.join(dir, 'pg_ctl')));
  if (!found) throw new Error('no PostgreSQL server binaries (pg_ctl) under /usr/lib/postgresql');
  return found;
}

export async function createPostgresCluster(): Promise<PostgresCluster> {
  const bin = binDir();
  const port = await freePort();
  const dir = mkdtempSync(path.join(tmpdir(), 'idsvc-pg-'));
  const asRoot = userInfo().uid === 0;
  if (asRoot) {
    const postgresUser = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const postgresGroup = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(dir, postgresUser, postgresGroup);
  }
  const run = (tool: string, args: string[]) => {
    const command = path.join(bin, tool);
    if (asRoot) execFileSync('runuser', ['-u', 'postgres', '--', command, ...args], { stdio: 'pipe' });
    else execFileSync(command, args, { stdio: 'pipe' });
  };
  const data = path.join(dir, 'data');
  run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  const options = `-p ${port} -c listen_addresses=127.0.0.1 -k ${dir} -c fsync=off -c full_page_writes=off`;
  const cluster: PostgresCluster = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start: () => run('pg_ctl', ['-D', data, '-o', options, '-l', path.join(dir, 'server.log'), '-w', 'start']),
    // Fast: connections are cut and open transactions rolled back, as when a database server fails over.
    stop: () => run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']),
    destroy: () => {
      try {
        cluster.stop();
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
  cluster.start();
  return cluster;
}
