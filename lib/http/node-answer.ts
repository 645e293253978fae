import type { IncomingMessage, ServerResponse } from 'node:http';
import { EVERY_RESPONSE, JSON_SURFACE } from './security-headers';

/** A Node request's headers as Web Headers (repeated headers kept), for answers made before Next. */
export function webHeaders(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  return headers;
}

/**
 * Writes a Web Response to Node's response, for answers made before Next sees the request. Next's
 * header rules (next.config.ts) do not run there, so the fixed security headers are added here.
 */
export async function writeResponse(
  res: ServerResponse,
  response: Response,
  fixed: Record<string, string> = { ...EVERY_RESPONSE, ...JSON_SURFACE },
): Promise<void> {
  for (const [name, value] of Object.entries(fixed)) res.setHeader(name, value);
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') res.setHeader(name, value);
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) res.setHeader('set-cookie', cookies);
  res.statusCode = response.status;
  res.end(response.body ? Buffer.from(await response.arrayBuffer()) : undefined);
}
