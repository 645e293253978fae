/**
 * Runs a Node (req, res) handler, such as node-oidc-provider's Koa app, on a Web Request and returns
 * a Web Response, or lets it write straight to Node's own response (the protocol lane). The request
 * gets the public origin of BASE_URL as its forwarded host and protocol, so URLs the handler builds
 * (discovery, redirects) are always the issuer's, whatever Host a client sent.
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

/** Node's own response for a handler to write to, with the headers the answer must carry. */
export interface NodeAnswerTarget {
  res: ServerResponse;
  /** Added when the head is written, where the handler has not set a header of the same name. */
  headers: Record<string, string>;
}

/**
 * The handler writes to Node's response itself: no copy of its answer is made. What comes back is a
 * receipt for the pipeline (the status, and the body of a 4xx, which security events read); the
 * answer itself has gone out.
 */
async function writeThrough(handler: NodeRequestHandler, req: IncomingMessage, target: NodeAnswerTarget): Promise<Response> {
  const { res, headers } = target;
  let refusalBody: string | Buffer | null = null;
  // Node writes the head through writeHead, explicitly or on the first write or end (_implicitHeader).
  // Filled in there, not before the handler runs: Koa clears every header when it answers an
  // uncaught error, and these must be on that answer too.
  const writeHead = res.writeHead;
  res.writeHead = function writeHeadWithOurs(this: ServerResponse, ...args: unknown[]) {
    for (const [name, value] of Object.entries(headers)) if (!this.hasHeader(name)) this.setHeader(name, value);
    return Reflect.apply(writeHead, this, args) as ServerResponse;
  } as typeof res.writeHead;
  const end = res.end;
  res.end = function endKeepingRefusal(this: ServerResponse, ...args: unknown[]) {
    const [chunk] = args;
    if (this.statusCode >= 400 && this.statusCode < 500 && (typeof chunk === 'string' || Buffer.isBuffer(chunk))) refusalBody = chunk;
    return Reflect.apply(end, this, args) as ServerResponse;
  } as typeof res.end;
  await handler(req, res);
  const type = res.getHeader('content-type');
  return new Response(refusalBody, { status: res.statusCode, headers: type === undefined ? {} : { 'content-type': String(type) } });
}

export async function runNodeHandler(
  handler: NodeRequestHandler,
  request: Request,
  body: Buffer,
  publicOrigin: string,
  clientAddress: string,
  requestId?: string,
  writeTo?: NodeAnswerTarget,
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
  if (writeTo) return writeThrough(handler, req, writeTo);
  const res = new CapturedResponse();
  const finished = new Promise<void>((resolve, reject) => {
    res.on('finish', resolve);
    res.on('error', reject);
  });
  await handler(req, res as unknown as ServerResponse);
  await finished;
  return res.toResponse();
}
