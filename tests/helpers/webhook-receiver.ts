/**
 * A real webhook receiver: an HTTPS server on loopback (the test-only certificate in tests/fixtures/tls)
 * that keeps every request it gets (headers and the exact body bytes), answers from a script of
 * statuses (or, with `reply`, decides each answer itself: a status after a delay, or a reset
 * connection), and counts requests in flight per webhook-id (two senders of one delivery at the same
 * time would show as 2). A request stops being in flight when its exchange ends: answered, or the
 * connection closed by either side. `delivered()` is what a receiver deduping by webhook-id keeps.
 */
import { randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

const TLS_DIR = path.resolve(__dirname, '../fixtures/tls');
export const TEST_CA_FILE = path.join(TLS_DIR, 'localhost-test.crt');

/**
 * The base seed of a receiver whose answers are drawn at random (lib/webhooks/receiver-faults.int.test.ts).
 * Gating runs use the fixed seed, as the property suite does (tests/properties/run-property.ts), so they
 * fail only on what a change did; `WEBHOOK_FAULT_SEED=<n>` replays a run, `WEBHOOK_FAULT_SEED=random`
 * draws a new one to search with (the seed is printed either way).
 */
export const FIXED_FAULT_SEED = 20_261_128;
export function receiverFaultSeed(): number {
  const chosen = process.env.WEBHOOK_FAULT_SEED;
  if (!chosen) return FIXED_FAULT_SEED;
  if (chosen === 'random') return randomInt(2 ** 31);
  const seed = Number(chosen);
  if (!Number.isSafeInteger(seed)) throw new Error(`WEBHOOK_FAULT_SEED must be an integer or "random", not ${chosen}`);
  return seed;
}

export interface Received {
  id: string;
  headers: Record<string, string>;
  body: string;
  /** The status the receiver chose (0: it reset the connection instead of answering). */
  status: number;
  /** The request's path and query. */
  url: string;
  /** The answer was written before the connection closed (false: reset, or the sender gave up waiting). */
  answered: boolean;
  /** Requests with this webhook-id in flight when this one arrived, itself included (1 unless sent twice at once). */
  concurrent: number;
}

/** What a scripted receiver does with one request: answer `status` after `delayMs`, or reset the connection (socket.destroy()). */
export type Reply = { status: number; delayMs?: number } | { reset: true; delayMs?: number };

export interface ReceiverOptions {
  /** Delay before every scripted answer. */
  delayMs?: number;
  /** Decides each request's answer (instead of the script of `respond`), once its body has arrived. */
  reply?: (request: Pick<Received, 'id' | 'headers' | 'body' | 'url'>) => Reply;
}

export async function startReceiver(options: ReceiverOptions = {}) {
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
    // A request is in flight until it is answered or its connection ends: closed here (a reset), or
    // by the sender (it stopped waiting: nothing more can come of this request, even before the
    // server has finished tearing the connection down).
    let settled = false;
    const settle = () => {
      if (settled) return;
      settled = true;
      req.socket.off('end', settle);
      inFlight.set(id, (inFlight.get(id) ?? 1) - 1);
    };
    res.once('close', settle);
    req.socket.once('end', settle);
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
      const body = Buffer.concat(chunks).toString('utf8');
      const url = req.url ?? '';
      const reply: Reply = options.reply?.({ id, headers, body, url }) ?? { status: script.shift() ?? fallback, delayMs: options.delayMs };
      const entry: Received = { id, headers, body, url, status: 'reset' in reply ? 0 : reply.status, answered: false, concurrent: now };
      received.push(entry);
      setTimeout(() => {
        if (res.destroyed || res.writableEnded) return;
        if ('reset' in reply) return void req.socket.destroy();
        entry.answered = true;
        res.writeHead(reply.status, { 'content-type': 'text/plain' }).end('receiver body that is never stored');
      }, reply.delayMs ?? 0);
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
    /** Accepted (2xx) requests, each webhook-id once: what a deduping receiver has seen (an answer too late for the sender included: the receiver took the event in). */
    delivered: () => [...new Map(received.filter((r) => r.status >= 200 && r.status < 300).map((r) => [r.id, r])).values()],
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;
