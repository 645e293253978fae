/**
 * A real webhook receiver: an HTTPS server on loopback (the test-only certificate in tests/fixtures/tls)
 * that keeps every request it gets (headers and the exact body bytes), answers from a script of
 * statuses, and counts requests in flight per webhook-id (two senders of one delivery at the same time
 * would show as 2). `delivered()` is what a receiver deduping by webhook-id keeps.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

const TLS_DIR = path.resolve(__dirname, '../fixtures/tls');
export const TEST_CA_FILE = path.join(TLS_DIR, 'localhost-test.crt');

export interface Received {
  id: string;
  headers: Record<string, string>;
  body: string;
  status: number;
}

export async function startReceiver(options: { delayMs?: number } = {}) {
  const received: Received[] = [];
  const script: number[] = [];
  let fallback = 200;
  const inFlight = new Map<string, number>();
  let maxInFlight = 0;
  const server = createServer({ cert: readFileSync(TEST_CA_FILE), key: readFileSync(path.join(TLS_DIR, 'localhost-test.key')) }, (req, res) => {
    const id = String(req.headers['webhook-id'] ?? '');
    const now = (inFlight.get(id) ?? 0) + 1;
    inFlight.set(id, now);
    maxInFlight = Math.max(maxInFlight, now);
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const status = script.shift() ?? fallback;
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
      received.push({ id, headers, body: Buffer.concat(chunks).toString('utf8'), status });
      setTimeout(() => {
        inFlight.set(id, (inFlight.get(id) ?? 1) - 1);
        res.writeHead(status, { 'content-type': 'text/plain' }).end('receiver body that is never stored');
      }, options.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    /** By name: the certificate covers localhost, which resolves to loopback. */
    url: `https://localhost:${port}/hooks?token=abc`,
    port,
    received,
    /** The statuses the next requests get, in order; then `otherwise`. */
    respond(statuses: number[], otherwise = 200) {
      script.splice(0, script.length, ...statuses);
      fallback = otherwise;
    },
    maxInFlight: () => maxInFlight,
    /** Accepted (2xx) requests, each webhook-id once: what a deduping receiver has seen. */
    delivered: () => [...new Map(received.filter((r) => r.status < 300).map((r) => [r.id, r])).values()],
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;
