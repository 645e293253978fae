/**
 * SIGTERM against the built server with a slow request in flight (a help question whose provider
 * takes 1.5 s): new connections are refused at once, the request in flight finishes with its answer,
 * readiness read during the drain says not ready, and the process exits 0 having logged its drain.
 */
import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startBuiltServer, type BuiltServer } from './support/built-server';

const PROVIDER_DELAY_MS = 1_500;

let provider: Server;
let providerAsked: () => void;
const asked = new Promise<void>((resolve) => (providerAsked = resolve));
let server: BuiltServer;

beforeAll(async () => {
  const port = await freePort();
  provider = createServer((req, res) => {
    req.resume();
    providerAsked();
    setTimeout(() => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ choices: [{ message: { content: 'Slow but complete.' } }] }));
    }, PROVIDER_DELAY_MS);
  });
  await new Promise<void>((resolve) => provider.listen(port, '127.0.0.1', resolve));
  server = await startBuiltServer({ HELP_PROVIDER_URL: `http://127.0.0.1:${port}/v1`, SHUTDOWN_GRACE_SECONDS: '10', STATUS_EVIDENCE_TTL_SECONDS: '1' });
});

afterAll(async () => {
  await server?.stop();
  await new Promise((resolve) => provider?.close(resolve));
});

/**
 * The slow help question on a raw connection; `probe()` pipelines the readiness probe behind it on the
 * same connection (sent when called). `sent` resolves with everything the server wrote before closing.
 */
function pipelined(base: string, question: string): { probe: () => void; sent: Promise<string> } {
  const url = new URL(base);
  const body = JSON.stringify({ question });
  const socket = connect(Number(url.port), '127.0.0.1');
  socket.write(
    `POST /api/docs/ask HTTP/1.1\r\nHost: ${url.host}\r\nOrigin: ${base}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
  return {
    probe: () => socket.write(`GET /readyz HTTP/1.1\r\nHost: ${url.host}\r\n\r\n`),
    sent: new Promise((resolve, reject) => socket.once('close', () => resolve(received)).once('error', reject)),
  };
}

describe('graceful shutdown', () => {
  it('drains: no new connections, the slow request finishes, readiness says not ready, exit 0', async () => {
    expect((await fetch(`${server.base}/readyz`)).status).toBe(200);
    const started = Date.now();
    const connection = pipelined(server.base, 'How do passkeys work?');
    await asked;
    server.signal('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 200));
    // Asked during the drain, on the connection that is still open.
    connection.probe();
    // A new connection is refused at once: the listener is closed.
    await expect(fetch(`${server.base}/api/health`)).rejects.toThrow();

    const raw = await connection.sent;
    expect(Date.now() - started).toBeGreaterThanOrEqual(PROVIDER_DELAY_MS);
    const [slowAnswer, probeAnswer] = raw.split(/(?=HTTP\/1\.1 )/);
    // The request in flight at the signal finishes with its real answer ...
    expect(slowAnswer).toMatch(/^HTTP\/1\.1 200 /);
    expect(slowAnswer).toContain('Slow but complete.');
    // ... and the probe on the same connection, read during the drain, says not ready and closes it.
    expect(probeAnswer).toMatch(/^HTTP\/1\.1 503 /);
    expect(probeAnswer).toMatch(/\r\nconnection: close\r\n/i);
    expect(probeAnswer).toMatch(/\r\nx-request-id: \S+\r\n/i);
    expect(probeAnswer).toContain('{"status":"not_ready"}');

    expect(await server.exited).toBe(0);
    const [begun] = server.events('shutdown_started');
    expect(begun).toMatchObject({ signal: 'SIGTERM' });
    expect(begun!.in_flight as number).toBeGreaterThanOrEqual(1);
    expect(server.events('shutdown_complete')).toEqual([expect.objectContaining({ all_requests_finished: true })]);
    // The slow request's access line was written before the process ended.
    expect(server.events('access').some((line) => line.operation === 'askDocs' && line.status === 200)).toBe(true);
  });
});
