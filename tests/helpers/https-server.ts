/**
 * A real HTTPS server (node:https, the test-only certificate in tests/fixtures/tls) in front of the
 * service's route bindings, for behaviour that depends on the scheme: `__Host-` cookies are Secure,
 * and browsers accept them only over HTTPS. `request` is its client: it trusts that certificate and
 * nothing else, and answers with a Web Response (each Set-Cookie line kept apart).
 */
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { stampPeer } from '@/lib/http/client-address';
import { OPERATIONS } from '@/lib/http/registry';
import { serve } from '@/lib/http/serve';

const TLS_DIR = path.resolve(__dirname, '../fixtures/tls');
const cert = readFileSync(path.join(TLS_DIR, 'localhost-test.crt'));
const key = readFileSync(path.join(TLS_DIR, 'localhost-test.key'));

const templates = [...new Set(OPERATIONS.map((op) => op.path))].map((template) => ({
  template,
  names: [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!),
  pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{\w+\\?\}/g, '([^/]+)')}$`),
}));

/** The declared path a concrete path belongs to (literal paths win over templates), with its parameters. */
function route(pathname: string): { template: string; params: Record<string, string> } | null {
  const matches = templates.filter((t) => t.pattern.test(pathname)).sort((a, b) => a.names.length - b.names.length);
  const best = matches[0];
  if (!best) return null;
  const values = best.pattern.exec(pathname)!.slice(1);
  return { template: best.template, params: Object.fromEntries(best.names.map((name, i) => [name, decodeURIComponent(values[i]!)])) };
}

/** Node's (req, res) in front of the route bindings, as Next serves them (also for plain-HTTP test servers). */
export async function serveThroughRoutes(req: IncomingMessage, res: ServerResponse): Promise<void> {
  stampPeer(req);
  const url = new URL(req.url ?? '/', `https://${req.headers.host}`);
  const found = route(url.pathname);
  if (!found) {
    res.writeHead(404).end();
    return;
  }
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value);
  const method = (req.method ?? 'GET') as 'GET';
  const body = chunks.length && method !== 'GET' ? Buffer.concat(chunks) : undefined;
  const response = await serve(found.template)[method](new Request(url, { method, headers, body }), { params: Promise.resolve(found.params) });
  const outgoing: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') outgoing[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length) outgoing['set-cookie'] = cookies;
  res.writeHead(response.status, outgoing).end(Buffer.from(await response.arrayBuffer()));
}

export async function startHttpsServer() {
  const server = createServer({ cert, key }, serveThroughRoutes);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const origin = `https://localhost:${port}`;

  async function request(target: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Response> {
    // To the listening address, named as the browser would (the certificate covers both).
    const url = new URL(new URL(target, origin).pathname + new URL(target, origin).search, `https://127.0.0.1:${port}`);
    return new Promise((resolve, reject) => {
      const outgoing = httpsRequest(
        url,
        { method: init.method ?? 'GET', headers: { host: `localhost:${port}`, ...init.headers }, ca: cert, servername: 'localhost' },
        (incoming) => {
          const chunks: Buffer[] = [];
          incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
          incoming.on('end', () => {
            const headers = new Headers();
            for (const [name, value] of Object.entries(incoming.headers)) {
              for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, item);
            }
            const status = incoming.statusCode ?? 500;
            resolve(new Response([204, 304].includes(status) ? null : Buffer.concat(chunks), { status, headers }));
          });
        },
      );
      outgoing.on('error', reject);
      outgoing.end(init.body);
    });
  }

  return { origin, request, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
