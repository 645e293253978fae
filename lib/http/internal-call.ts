import { getConfig } from '@/lib/config';
import { runOperation } from './pipeline';
import { OPERATIONS } from './registry';

export type InternalResult<T> = { ok: true; status: number; body: T } | { ok: false; status: number; body: unknown };

/**
 * Lets server-rendered pages call the documented API in-process, through the same pipeline (every
 * protection applies) without a network round trip or knowledge of where the server listens.
 */
export async function callOperation<T>(method: string, path: string, headers: Record<string, string> = {}): Promise<InternalResult<T>> {
  const pathname = path.split('?')[0];
  const op = OPERATIONS.find((candidate) => candidate.method === method && candidate.path === pathname);
  if (!op) throw new Error(`No operation ${method} ${pathname}`);
  const response = await runOperation(op, new Request(`${getConfig().baseUrl}${path}`, { method, headers }));
  const body: unknown = await response.json();
  return response.ok ? { ok: true, status: response.status, body: body as T } : { ok: false, status: response.status, body };
}
