/**
 * The DNS half of domain verification: read the TXT records at `_identity-challenge.<domain>` through
 * the configured resolvers (DNS_SERVERS, `host:port` list; the system's otherwise), bounded in time,
 * and say what was found. Nothing here touches the database.
 */
import { promises as dns } from 'node:dns';
import { getConfig } from '@/lib/config';

export const CHALLENGE_LABEL = '_identity-challenge';
export const VALUE_PREFIX = 'identity-domain-verification=';
/** The whole lookup, retries included, ends within this. */
export const DNS_LOOKUP_TIMEOUT_MS = 3_000;
/** What a failure shows of the values it found: enough to spot a typo, never a flood. */
const SHOWN_VALUES = 10;
const SHOWN_VALUE_LENGTH = 255;

export type ProofOutcome = { proven: true } | { proven: false; reason: 'no_record' | 'other_values' | 'timeout' | 'lookup_failed'; found: string[] };

export const challengeName = (domain: string) => `${CHALLENGE_LABEL}.${domain}`;
export const challengeValue = (token: string) => `${VALUE_PREFIX}${token}`;

function resolver(timeoutMs: number): dns.Resolver {
  const r = new dns.Resolver({ timeout: Math.min(timeoutMs, 1_500), tries: 2 });
  const servers = getConfig().dnsServers;
  if (servers.length > 0) r.setServers(servers);
  return r;
}

/** Whether the TXT record `name` holds `expected` (a record split into 255-byte strings is joined first). */
export async function lookForProof(name: string, expected: string, timeoutMs = DNS_LOOKUP_TIMEOUT_MS): Promise<ProofOutcome> {
  const r = resolver(timeoutMs);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  try {
    const answer = await Promise.race([r.resolveTxt(name), deadline]);
    if (answer === 'timeout') {
      r.cancel();
      return { proven: false, reason: 'timeout', found: [] };
    }
    const values = answer.map((chunks) => chunks.join(''));
    if (values.includes(expected)) return { proven: true };
    const found = values.slice(0, SHOWN_VALUES).map((v) => v.slice(0, SHOWN_VALUE_LENGTH));
    return { proven: false, reason: found.length ? 'other_values' : 'no_record', found };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === dns.NOTFOUND || code === dns.NODATA) return { proven: false, reason: 'no_record', found: [] };
    if (code === dns.TIMEOUT || code === dns.CANCELLED) return { proven: false, reason: 'timeout', found: [] };
    return { proven: false, reason: 'lookup_failed', found: [] };
  } finally {
    clearTimeout(timer);
  }
}
