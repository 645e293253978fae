/**
 * The built service (`next build` first) as its own process, the way an operator runs it: the command
 * of `npm start` (package.json, flags included) on a free port, its JSON log lines collected from
 * stdout, signals sent to the process itself (not to npm, which stands between them in `npm start`).
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface BuiltServer {
  base: string;
  dataDir: string;
  /** Every line the server wrote to stdout and stderr so far. */
  lines: string[];
  /** The JSON log lines with this `event`. */
  events(event: string): Record<string, unknown>[];
  signal(signal: NodeJS.Signals): void;
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>;
  stop(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** Secrets a server on a real database requires (it never invents them there). */
export function operatorSecrets(): Record<string, string> {
  return {
    SESSION_SECRET: randomBytes(32).toString('base64'),
    PASSWORD_PEPPER: randomBytes(32).toString('base64'),
    DATA_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
  };
}

/** `npm start`'s command line without its leading `node`: Node's flags, then Next's start. */
function startArguments(): string[] {
  const { scripts } = JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { start: string } };
  const [runtime, ...args] = scripts.start.split(/\s+/);
  if (runtime !== 'node') throw new Error(`npm start is expected to run node, not ${runtime}`);
  return args;
}

export async function startBuiltServer(env: Record<string, string> = {}): Promise<BuiltServer> {
  const port = await freePort();
  const base = `http://localhost:${port}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'idsvc-system-'));
  const inherited = { ...process.env };
  // The embedded database unless the test names one.
  delete inherited.DATABASE_URL;
  const child = spawn(process.execPath, [...startArguments(), '-p', String(port)], {
    env: { ...inherited, NODE_ENV: 'production', DATA_DIR: dataDir, BASE_URL: base, PORT: String(port), LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  let pending = '';
  const collect = (chunk: Buffer) => {
    pending += chunk.toString('utf8');
    const complete = pending.split('\n');
    pending = complete.pop()!;
    lines.push(...complete.filter(Boolean));
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let ended = false;
  void exited.then(() => (ended = true));
  const events = (event: string) =>
    lines.flatMap((line) => {
      try {
        const parsed = JSON.parse(line) as Record<string, unknown>;
        return parsed.event === event ? [parsed] : [];
      } catch {
        return [];
      }
    });
  const server: BuiltServer = {
    base,
    dataDir,
    lines,
    events,
    signal: (signal) => child.kill(signal),
    exited,
    async stop() {
      if (!ended) child.kill('SIGKILL');
      await exited;
    },
  };
  for (let i = 0; i < 240; i++) {
    if (ended) throw new Error(`the server exited before answering (build it first: npx next build)\n${lines.join('\n')}`);
    try {
      if ((await fetch(`${base}/api/health`)).ok) return server;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await server.stop();
  throw new Error(`the server did not answer within a minute\n${lines.join('\n')}`);
}
