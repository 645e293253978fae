import { getConfig } from '@/lib/config';
import { serviceError } from '@/lib/contract/errors';
import type { OriginRule } from '@/lib/contract/operation';

/**
 * The per-operation Origin rule (ARCHITECTURE.md pipeline step 5). Exact string comparison with the
 * origin of BASE_URL: no suffix or scheme tolerance, and `null` never matches.
 */
export function assertOrigin(rule: OriginRule, headers: Headers): void {
  if (rule === 'none') return;
  const expected = getConfig().origin;
  const origin = headers.get('origin');
  if (rule === 'required') {
    if (origin !== expected) throw serviceError('origin_mismatch', 'This operation requires the exact service Origin.');
    return;
  }
  if (origin !== null && origin !== expected) throw serviceError('origin_mismatch', 'Cross-origin requests are refused.');
  const site = headers.get('sec-fetch-site');
  if (site !== null && site !== 'same-origin' && site !== 'none') {
    throw serviceError('origin_mismatch', 'Cross-site requests are refused.');
  }
}
