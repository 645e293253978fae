import { randomUUID } from 'node:crypto';

const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/** Accepts a caller's correlation id when it is sane (no header injection, bounded), else mints one. */
export function requestIdFor(headers: Headers): string {
  const incoming = headers.get('x-request-id');
  return incoming && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}
