/**
 * Runs a Node (req, res) handler, such as node-oidc-provider's Koa app, on a Web Request and returns
 * a Web Response. The request gets the public origin of BASE_URL as its forwarded host and protocol,
 * so URLs the handler builds (discovery, redirects) are always the issuer's, whatever Host a client
 * sent.
 */
import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable, Writable } from 'node:stream';
import type { NodeRequestHandler } from '@/lib/contract/operation';

class CapturedResponse extends Writable {
  statusCode = 200;
  statusMessage = '';
  private readonly headers = new Map<string, number | string | string[]>();
  private readonly chunks: Buffer[] = [];
  // Koa asks the socket whether the response can still be written; on-finished listens on it.
  readonly socket = Object.assign(new EventEmitter(), { writable: true });

  get headersSent(): boolean {
    return this.chunks.length > 0 || this.writableEnded;
  }

  setHeader(name: string, value: number | string | string[]): this {
    this.headers.set(name.toLowerCase(), value);
    return this;
  }
  getHeader(name: string) {
    return this.headers.get(name.toLowerCase());
  }
  getHeaders() {
    return Object.fromEntries(this.headers);
  }
  getHeaderNames() {
    return [...this.headers.keys()];
  }
  hasHeader(name: string) {
    return this.headers.has(name.toLowerCase());
  }
  removeHeader(name: string) {
    this.headers.delete(name.toLowerCase());
  }
  writeHead(status: number, ...rest: unknown[]): this {
    this.statusCode = status;
    const headers = rest.find((r) => typeof r === 'object' && r !== null) as Record<string, string> | undefined;
    for (const [k, v] of Object.entries(headers ?? {})) this.setHeader(k, v);
    return this;
  }
  override _write(chunk: Buffer | string, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
    done();
  }

  toResponse(): Response {
    const headers = new Headers();
    for (const [name, value] of this.headers) {
      for (const item of Array.isArray(value) ? value : [String(value)]) headers.append(name, item);
    }
    const body = [204, 304].includes(this.statusCode) ? null : Buffer.concat(this.chunks);
    return new Response(body, { status: this.statusCode, headers });
  }
}

export async function runNodeHandler(
  handler: NodeRequestHandler,
  request: Request,
  body: Buffer,
  publicOrigin: string,
  clientAddress: string,
  requestId?: string,
): Promise<Response> {
  const url = new URL(request.url);
  const origin = new URL(publicOrigin);
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  Object.assign(headers, {
    host: origin.host,
    'x-forwarded-host': origin.host,
    'x-forwarded-proto': origin.protocol.replace(':', ''),
    'x-forwarded-for': clientAddress,
    'content-length': String(body.length),
  });
  if (requestId) headers['x-request-id'] = requestId;
  const req = Object.assign(Readable.from(body.length ? [body] : []), {
    method: request.method,
    url: `${url.pathname}${url.search}`,
    headers,
    httpVersion: '1.1',
    socket: Object.assign(new EventEmitter(), { remoteAddress: clientAddress, encrypted: origin.protocol === 'https:' }),
  }) as unknown as IncomingMessage;
  const res = new CapturedResponse();
  const finished = new Promise<void>((resolve, reject) => {
    res.on('finish', resolve);
    res.on('error', reject);
  });
  await handler(req, res as unknown as ServerResponse);
  await finished;
  return res.toResponse();
}
