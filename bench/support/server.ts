import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface BenchServer {
  base: string;
  dataDir: string;
  stop: () => void;
}

/**
 * Starts the built app (`npm run build` first) with `npm start`, on the embedded database in a fresh
 * DATA_DIR. With BENCH_PROFILE_DIR set, the server writes a V8 CPU profile there when it stops (open
 * it in Chrome DevTools), to see where a figure's time goes.
 */
export async function startServer(port: number, env: Record<string, string> = {}): Promise<BenchServer> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'idsvc-bench-'));
  const base = `http://localhost:${port}`;
  const profiling = process.env.BENCH_PROFILE_DIR ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}` } : {};
  const child: ChildProcess = spawn('npm', ['start', '--', '-p', String(port)], {
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), BASE_URL: base, ...profiling, ...env },
    stdio: 'ignore',
    detached: true,
  });
  let exited: number | null = null;
  child.on('exit', (code) => (exited = code ?? -1));
  for (let i = 0; i < 120; i++) {
    if (exited !== null) throw new Error(`the server exited (code ${exited}) before answering: build the app first (npm run build)`);
    try {
      if ((await fetch(`${base}/api/health`)).ok) return { base, dataDir, stop: () => process.kill(-child.pid!, 'SIGTERM') };
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  process.kill(-child.pid!, 'SIGTERM');
  throw new Error('server did not start');
}

/** The newest six-digit code in the dev mailbox for `to`. */
export function devMailboxCode(dataDir: string, to: string): string {
  const dir = path.join(dataDir, 'mailbox');
  const files = readdirSync(dir).sort().reverse();
  for (const file of files) {
    const text = readFileSync(path.join(dir, file), 'utf8');
    if (text.includes(`To: ${to}`)) {
      const code = /\b(\d{6})\b/.exec(text.split('\n\n').slice(1).join('\n').replace(/=\n/g, ''))?.[1];
      if (code) return code;
    }
  }
  throw new Error(`no code for ${to}`);
}

export const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/** Fresh secrets for a benchmark server on the PostgreSQL server (which requires them). */
export function scratchSecrets(): Record<'SESSION_SECRET' | 'PASSWORD_PEPPER' | 'DATA_ENCRYPTION_KEY', string> {
  return {
    SESSION_SECRET: randomBytes(32).toString('base64'),
    PASSWORD_PEPPER: randomBytes(32).toString('base64'),
    DATA_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
  };
}
