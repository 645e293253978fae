/**
 * The HTTPS plumbing both stand-in identity providers share: a node:https server on 127.0.0.1 with a
 * leaf from the test CA (named `https://localhost:PORT`, the certificate covers `localhost` and
 * `127.0.0.1`), a fetch that trusts one CA and nothing else (no undici package here; usable as
 * openid-client's customFetch), and a small cookie jar for driving an IdP's own login pages.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TestCa } from './test-ca';

export interface HttpsEndpoint {
  /** `https://localhost:PORT` */
  origin: string;
  port: number;
  close(): Promise<void>;
}

/** A certificate and key to serve with as they are (an e2e run's, which the service already trusts). */
export interface FixedTls {
  certPem: string;
  keyPem: string;
}

/** `tls`: a leaf from the test CA, or a fixed certificate; `port`: chosen beforehand, or free. */
export async function serveHttps(tls: TestCa | FixedTls, handler: (req: IncomingMessage, res: ServerResponse) => void, port = 0): Promise<HttpsEndpoint> {
  const { certPem, keyPem } = 'issueServer' in tls ? await tls.issueServer(['localhost', '127.0.0.1']) : tls;
  const server = createServer({ cert: certPem, key: keyPem }, handler);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  const bound = (server.address() as AddressInfo).port;
  return {
    origin: `https://localhost:${bound}`,
    port: bound,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections(); // keep-alive sockets would hold close() open
      }),
  };
}

export type HttpsFetch = (
  input: string | URL,
  init?: { method?: string; headers?: HeadersInit; body?: BodyInit | Uint8Array | null; signal?: AbortSignal | null },
) => Promise<Response>;

/**
 * fetch over node:https trusting only `caPem`. Never follows redirects (the 3xx comes back, as with
 * `redirect: 'manual'`, but readable), and keeps each Set-Cookie apart (`headers.getSetCookie()`).
 */
export function httpsFetch(caPem: string): HttpsFetch {
  return async (input, init = {}) => {
    // Request normalises the body (string, URLSearchParams, bytes) and adds its content-type.
    // (Any Uint8Array is fine at run time; the DOM types want one over an ArrayBuffer.)
    const request = new Request(input, { method: init.method, headers: init.headers, body: init.body as BodyInit | null | undefined });
    const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    const headers = Object.fromEntries(request.headers);
    if (body) headers['content-length'] = String(body.length);
    return new Promise<Response>((resolve, reject) => {
      const outgoing = httpsRequest(request.url, { method: request.method, headers, ca: caPem, signal: init.signal ?? undefined }, (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('error', reject);
        incoming.on('end', () => {
          const responseHeaders = new Headers();
          for (const [name, value] of Object.entries(incoming.headers)) {
            for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value]) responseHeaders.append(name, item);
          }
          const status = incoming.statusCode ?? 500;
          resolve(new Response([204, 304].includes(status) ? null : Buffer.concat(chunks), { status, headers: responseHeaders }));
        });
      });
      outgoing.on('error', reject);
      outgoing.end(body);
    });
  };
}

interface Cookie {
  name: string;
  value: string;
  path: string;
}

/** Enough of RFC 6265 for one origin: Path scoping, replacement by name+path, deletion by expiry. */
export class CookieJar {
  private cookies: Cookie[] = [];

  store(response: Response, url: URL): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      let path = url.pathname.replace(/\/[^/]*$/, '') || '/';
      let expired = value === '';
      for (const attribute of attributes) {
        const [key = '', val = ''] = attribute.split('=', 2);
        if (/^path$/i.test(key) && val.startsWith('/')) path = val;
        if (/^max-age$/i.test(key) && Number(val) <= 0) expired = true;
        if (/^expires$/i.test(key) && Date.parse(val) <= Date.now()) expired = true;
      }
      this.cookies = this.cookies.filter((c) => c.name !== name || c.path !== path);
      if (!expired) this.cookies.push({ name, value, path });
    }
  }

  /** The Cookie header for a request to `url` (longer paths first), or undefined when none applies. */
  header(url: URL): string | undefined {
    const matching = this.cookies
      .filter((c) => url.pathname === c.path || url.pathname.startsWith(c.path.endsWith('/') ? c.path : `${c.path}/`))
      .sort((a, b) => b.path.length - a.path.length);
    return matching.length ? matching.map((c) => `${c.name}=${c.value}`).join('; ') : undefined;
  }
}
