/**
 * Outbound HTTPS to addresses people give us (webhook endpoints, later federation): an SSRF guard.
 * A destination must be https, carry no credentials, and resolve only to public addresses; the check
 * runs when the URL is accepted AND again inside the connection (a custom `lookup`), so a name that
 * resolves to something else by the time we connect (DNS rebinding) cannot reach a private network.
 * Redirects are never followed and a response body is drained only a little, never kept.
 * OUTBOUND_ALLOW_PRIVATE_NETWORKS (tests only) lifts the address rule, nothing else.
 */
import { promises as dns, type LookupAddress } from 'node:dns';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { rootCertificates } from 'node:tls';
import { getConfig } from '@/lib/config';

/** Why a send did not produce an HTTP status (safe to store and show: no address, no body). */
export type OutboundFailure = 'timeout' | 'network_error' | 'tls_error' | 'dns_refused' | 'private_address' | 'aborted';

export type OutboundResult = { status: number; durationMs: number } | { failure: OutboundFailure; durationMs: number };

/** Reasons a URL is refused before anything is sent. */
export type UrlRefusal = 'invalid_url' | 'not_https' | 'credentials' | 'fragment' | 'too_long' | 'dns_refused' | 'private_address';

export const MAX_OUTBOUND_URL_LENGTH = 2048;
/** Response bytes read (and dropped) so the connection can be reused; more than this closes it. */
const DRAIN_LIMIT = 16 * 1024;

const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata 169.254.169.254
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  blocked.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128],
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local, includes the EC2 metadata fd00:ec2::254
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const) {
  blocked.addSubnet(net, prefix, 'ipv6');
}

/** The IPv4 address an IPv6 form carries (IPv4-mapped ::ffff:a.b.c.d, NAT64 64:ff9b::/96), if any. */
function embeddedIpv4(address: string): string | null {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:(?:0:)?|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1]!;
  const hex = /^(?:::ffff:(?:0:)?|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (!hex) return null;
  const high = parseInt(hex[1]!, 16);
  const low = parseInt(hex[2]!, 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/** True for an address outbound requests may reach: public unicast only. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  if (family === 4) return !blocked.check(address, 'ipv4');
  const v4 = embeddedIpv4(address);
  if (v4) return !blocked.check(v4, 'ipv4');
  return !blocked.check(address, 'ipv6');
}

function addressAllowed(address: string): boolean {
  return getConfig().outboundAllowPrivateNetworks || isPublicAddress(address);
}

/** Every address a name resolves to (the system resolver, as the connection itself would use). */
function resolveAll(hostname: string): Promise<LookupAddress[]> {
  return dns.lookup(hostname, { all: true, verbatim: true });
}

class RefusedAddress extends Error {
  readonly code = 'EPRIVATE_ADDRESS';
}

/**
 * The connection's own resolution: every address the name has must be allowed (one private answer
 * refuses the whole name, so a mixed answer cannot be raced), and the socket connects to one of them.
 */
const guardedLookup: LookupFunction = (hostname, options, callback) => {
  resolveAll(hostname).then(
    (addresses) => {
      if (!addresses.every((a) => addressAllowed(a.address))) return callback(new RefusedAddress('refused address'), '', 4);
      const wanted = options.family === 4 || options.family === 6 ? addresses.filter((a) => a.family === options.family) : addresses;
      if (wanted.length === 0) return callback(Object.assign(new Error('no address'), { code: 'ENOTFOUND' }), '', 4);
      if (options.all) return (callback as unknown as (e: null, all: LookupAddress[]) => void)(null, wanted);
      callback(null, wanted[0]!.address, wanted[0]!.family);
    },
    (error: NodeJS.ErrnoException) => callback(error, '', 4),
  );
};

/** Shape checks that need no network: https, length, no user:password@, no #fragment. */
export function urlShapeRefusal(raw: string): UrlRefusal | null {
  if (raw.length > MAX_OUTBOUND_URL_LENGTH) return 'too_long';
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'invalid_url';
  }
  if (url.protocol !== 'https:') return 'not_https';
  if (url.username || url.password) return 'credentials';
  if (raw.includes('#')) return 'fragment';
  return null;
}

/** The address check run when a URL is accepted (the connection repeats it). */
export async function destinationRefusal(raw: string): Promise<UrlRefusal | null> {
  const shape = urlShapeRefusal(raw);
  if (shape) return shape;
  const hostname = new URL(raw).hostname.replace(/^\[|\]$/g, '');
  if (isIP(hostname)) return addressAllowed(hostname) ? null : 'private_address';
  try {
    const addresses = await resolveAll(hostname);
    return addresses.every((a) => addressAllowed(a.address)) ? null : 'private_address';
  } catch {
    return 'dns_refused';
  }
}

interface AgentHolder {
  __identityOutboundAgent?: { key: string; agent: Agent };
}
const holder = globalThis as unknown as AgentHolder;

/** One keep-alive agent per process (connections are reused; each new one is checked by the lookup). */
function agent(): Agent {
  const { outboundCaFile: caFile, outboundAllowPrivateNetworks } = getConfig();
  // A changed rule must not ride on connections opened under the old one.
  const key = `${caFile ?? ''}|${outboundAllowPrivateNetworks}`;
  if (holder.__identityOutboundAgent?.key !== key) {
    holder.__identityOutboundAgent?.agent.destroy();
    const ca = caFile ? [...rootCertificates, readFileSync(caFile, 'utf8')] : undefined;
    holder.__identityOutboundAgent = { key, agent: new Agent({ keepAlive: true, maxSockets: 64, lookup: guardedLookup, ...(ca ? { ca } : {}) }) };
  }
  return holder.__identityOutboundAgent.agent;
}

function failureOf(error: NodeJS.ErrnoException): OutboundFailure {
  if (error instanceof RefusedAddress || error.code === 'EPRIVATE_ADDRESS') return 'private_address';
  if (error.code === 'ENOTFOUND' || error.code === 'EAI_AGAIN' || error.code === 'ENODATA') return 'dns_refused';
  if (error.code?.startsWith('ERR_TLS') || error.code?.includes('CERT') || error.code === 'DEPTH_ZERO_SELF_SIGNED_CERT') return 'tls_error';
  return 'network_error';
}

/**
 * POSTs `body` to `url` and answers the status (or a safe failure code). The whole exchange is bounded
 * by `timeoutMs`; the response body is drained up to a small limit and dropped; 3xx is answered as is
 * (never followed). `signal` aborts it (a worker that stops).
 */
export async function postJson(url: string, headers: Record<string, string>, body: string, options: { timeoutMs: number; signal?: AbortSignal }): Promise<OutboundResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const target = new URL(url);
  const literal = target.hostname.replace(/^\[|\]$/g, '');
  // An IP literal never goes through `lookup`: check it here.
  if (isIP(literal) && !addressAllowed(literal)) return { failure: 'private_address', durationMs: elapsed() };
  return new Promise<OutboundResult>((resolve) => {
    let settled = false;
    const finish = (outcome: { status: number } | { failure: OutboundFailure }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      resolve({ ...outcome, durationMs: elapsed() });
    };
    const outgoing = request(target, {
      method: 'POST',
      agent: agent(),
      lookup: guardedLookup,
      headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
    });
    const timer = setTimeout(() => {
      finish({ failure: 'timeout' });
      outgoing.destroy();
    }, options.timeoutMs);
    const onAbort = () => {
      finish({ failure: 'aborted' });
      outgoing.destroy();
    };
    if (options.signal?.aborted) return onAbort();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    outgoing.on('response', (incoming) => {
      const status = incoming.statusCode ?? 0;
      let drained = 0;
      incoming.on('data', (chunk: Buffer) => {
        drained += chunk.length;
        if (drained > DRAIN_LIMIT) incoming.destroy();
      });
      incoming.on('end', () => finish({ status }));
      incoming.on('close', () => finish({ status }));
      incoming.on('error', () => finish({ status }));
    });
    outgoing.on('error', (error: NodeJS.ErrnoException) => finish({ failure: failureOf(error) }));
    outgoing.end(body);
  });
}
