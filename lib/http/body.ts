import { serviceError } from '@/lib/contract/errors';
import { NOT_JSON } from './problem';

export const DEFAULT_MAX_BODY_BYTES = 64 * 1024;

/**
 * Reads the body as text without ever holding more than `limit` bytes: a declared Content-Length over
 * the limit is refused before reading, and a streamed body is cut off as soon as it exceeds it.
 */
export async function readBoundedBody(request: Request, limit: number): Promise<string> {
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (Number.isFinite(declared) && declared > limit) throw serviceError('payload_too_large', `Bodies are limited to ${limit} bytes.`);
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw serviceError('payload_too_large', `Bodies are limited to ${limit} bytes.`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Decodes JSON (or a plain HTML form where the operation accepts one) into an object for zod. */
export function decodeBody(text: string, contentType: string | null, acceptsForm: boolean): unknown {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === 'application/x-www-form-urlencoded' && acceptsForm) {
    return Object.fromEntries(new URLSearchParams(text));
  }
  if (type !== 'application/json' && !type.endsWith('+json')) {
    if (text.length === 0) return undefined;
    throw serviceError('unsupported_media_type', acceptsForm ? 'Send application/json or a form.' : 'Send application/json.');
  }
  if (text.length === 0) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw serviceError('invalid_request', NOT_JSON);
  }
}
