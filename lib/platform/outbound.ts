/**
 * Outbound HTTPS to addresses people give us (webhook endpoints, later federation): an SSRF guard.
 * A destination must be https, carry no credentials, and resolve only to public addresses; the check
 * runs when the URL is accepted AND again inside the connection (a custom `lookup`), so a name that
 * resolves to something else by the time we connect (DNS rebinding) cannot reach a private network.
 * Redirects are never followed and a response body is drained only a little, never kept.
 * OUTBOUND_ALLOW_PRIVATE_NETWORKS (tests only) lifts the address rule, nothing else.
 *
 * Local development (lib/config: the embedded database at a loopback BASE_URL, never with
 * PostgreSQL) admits one more kind of destination: a receiver on this machine, named localhost,
 * 127.0.0.1 or [::1], over http or https, whose every address is loopback. Private ranges, link-local
 * and metadata addresses stay refused there too (docs/decisions.md, "Local development").
 */
import { promises as dns, type LookupAddress } from 'node:dns';
import { readFileSync } from 'node:fs';
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent, request } from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { rootCertificates } from 'node:tls';
import { getConfig, isLoopbackHost } from '@/lib/config';

/** Why a send did not produce an HTTP status (safe to store and show: no address, no body). */
export type OutboundFailure = 'timeout' | 'network_error' | 'tls_error' | 'dns_refused' | 'private_address' | 'aborted';

export type OutboundResult = { status: number; durationMs: number } | { failure: OutboundFailure; durationMs: number };

/** Reasons a URL is refused before anything is sent. */
export type UrlRefusal = 'invalid_url' | 'control_characters' | 'not_https' | 'credentials' | 'fragment' | 'too_long' | 'dns_refused' | 'private_address';

export const MAX_OUTBOUND_URL_LENGTH = 2048;
/** Response bytes read (and dropped) so the connection can be reused; more than this closes it. */
const DRAIN_LIMIT = 16 * 1024;

/**
 * The IANA special-purpose address registries (iana.org/assignments/iana-ipv4-special-registry and
 * iana-ipv6-special-registry), as of 2025, minus the entries marked globally reachable. Written out
 * here rather than taken from an address library: the only ones installed (ipaddr.js, ip-address) come
 * in transitively, and ipaddr.js 1.x misses 64:ff9b:1::/48, 100::/64, 3fff::/20 and 5f00::/16 anyway.
 */
const blockedIpv4 = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata 169.254.169.254
  ['172.16.0.0', 12],
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast (deprecated)
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  blockedIpv4.addSubnet(net, prefix, 'ipv4');
}

/**
 * IPv6 outside 2000::/3 (global unicast) is never public: that refuses at once the unspecified and
 * loopback addresses, IPv4-compatible ::/96 (::7f00:1 is 127.0.0.1 to some stacks), the local-use
 * translation prefix 64:ff9b:1::/48, discard 100::/64, SRv6 5f00::/16, unique local fc00::/7 (EC2
 * metadata fd00:ec2::254), link-local, site-local and multicast. The two forms that carry an IPv4
 * address to the public internet are judged by that address (see `embeddedIpv4`).
 */
const globalUnicast = new BlockList();
globalUnicast.addSubnet('2000::', 3, 'ipv6');

/** Inside 2000::/3, the special-purpose ranges that are not globally reachable. */
const blockedIpv6 = new BlockList();
for (const [net, prefix] of [
  // IETF protocol assignments: Teredo 2001::/32 (tunnels to an IPv4 address it embeds), benchmarking
  // 2001:2::/48, ORCHID. The few anycast and AMT prefixes inside it that IANA marks reachable are no
  // destination a webhook has reason to use, so the whole /23 is refused.
  ['2001::', 23],
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4: a relay forwards to the IPv4 address it embeds
  ['3fff::', 20], // documentation (RFC 9637)
] as const) {
  blockedIpv6.addSubnet(net, prefix, 'ipv6');
}

/**
 * An IPv6 address in the one spelling the WHATWG URL parser gives it (RFC 5952: compressed, lower
 * case, an IPv4 tail in hex), so `0:0:0:0:0:ffff:127.0.0.1` and `::ffff:7f00:1` are one address.
 * Null for what the URL parser refuses (a zone id such as fe80::1%eth0).
 */
function canonicalIpv6(address: string): string | null {
  try {
    return new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return null;
  }
}

/**
 * The IPv4 address a canonical IPv6 address carries to the public internet: IPv4-mapped
 * ::ffff:0:0/96, its SIIT form ::ffff:0:0:0/96 and the NAT64 well-known prefix 64:ff9b::/96.
 */
function embeddedIpv4(canonical: string): string | null {
  const match = /^(?:::ffff:(?:0:)?|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(canonical);
  if (!match) return null;
  const high = parseInt(match[1]!, 16);
  const low = parseInt(match[2]!, 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/** True for an address outbound requests may reach: public unicast only. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !blockedIpv4.check(address, 'ipv4');
  if (family !== 6) return false;
  const canonical = canonicalIpv6(address);
  if (canonical === null) return false;
  const v4 = embeddedIpv4(canonical);
  if (v4) return !blockedIpv4.check(v4, 'ipv4');
  return globalUnicast.check(canonical, 'ipv6') && !blockedIpv6.check(canonical, 'ipv6');
}

/** The loopback interface: 127.0.0.0/8 and ::1 (and 127/8 carried in an IPv4-mapped form). */
const loopbackIpv4 = new BlockList();
loopbackIpv4.addSubnet('127.0.0.0', 8, 'ipv4');

export function isLoopbackAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return loopbackIpv4.check(address, 'ipv4');
  if (family !== 6) return false;
  const canonical = canonicalIpv6(address);
  if (canonical === null) return false;
  const v4 = embeddedIpv4(canonical);
  return v4 ? loopbackIpv4.check(v4, 'ipv4') : canonical === '::1';
}

/**
 * A receiver on this machine while developing locally: the host is written as localhost, 127.0.0.1 or
 * [::1] (URL.hostname form). Any other name, even one resolving to loopback, goes through the full rule.
 */
export function isLocalReceiverHost(hostname: string): boolean {
  return getConfig().localDevelopment && isLoopbackHost(hostname);
}

/** `hostname` is the URL's (bracketed for IPv6) or the name the connection resolves. */
function addressAllowed(address: string, hostname: string): boolean {
  if (getConfig().outboundAllowPrivateNetworks || isPublicAddress(address)) return true;
  return isLocalReceiverHost(hostname) && isLoopbackAddress(address);
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
      if (!addresses.every((a) => addressAllowed(a.address, hostname))) return callback(new RefusedAddress('refused address'), '', 4);
      const wanted = options.family === 4 || options.family === 6 ? addresses.filter((a) => a.family === options.family) : addresses;
      if (wanted.length === 0) return callback(Object.assign(new Error('no address'), { code: 'ENOTFOUND' }), '', 4);
      if (options.all) return (callback as unknown as (e: null, all: LookupAddress[]) => void)(null, wanted);
      callback(null, wanted[0]!.address, wanted[0]!.family);
    },
    (error: NodeJS.ErrnoException) => callback(error, '', 4),
  );
};

/**
 * Characters the URL parser would silently drop or rewrite (C0 controls, DEL; tab, CR and LF anywhere;
 * spaces at either end) or that a URL never holds unencoded (an inner space): refused rather than
 * cleaned, so the URL a person typed, the one stored and the one called cannot differ in ways nobody sees.
 */
const NOT_IN_A_URL = /[\u0000-\u0020\u007f]/;

/**
 * Shape checks that need no network: written plainly, https (or http to a local receiver while
 * developing locally), length, no user:password@, no #fragment.
 * On success, the URL in its parsed, serialised form (`new URL(raw).href`: the host IDNA-mapped, so
 * `127。0。0。1` is 127.0.0.1): the form to store, show and call, so what is shown is where requests go.
 */
export function parseDestination(raw: string): { href: string } | { refusal: UrlRefusal } {
  if (raw.length > MAX_OUTBOUND_URL_LENGTH) return { refusal: 'too_long' };
  if (NOT_IN_A_URL.test(raw)) return { refusal: 'control_characters' };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { refusal: 'invalid_url' };
  }
  const localHttp = url.protocol === 'http:' && isLocalReceiverHost(url.hostname);
  if (url.protocol !== 'https:' && !localHttp) return { refusal: 'not_https' };
  if (url.username || url.password) return { refusal: 'credentials' };
  if (raw.includes('#')) return { refusal: 'fragment' };
  // Percent-encoding and punycode can lengthen it: the stored form obeys the limit too.
  if (url.href.length > MAX_OUTBOUND_URL_LENGTH) return { refusal: 'too_long' };
  return { href: url.href };
}

/** The shape refusal of `raw`, or null (see `parseDestination`). */
export function urlShapeRefusal(raw: string): UrlRefusal | null {
  const parsed = parseDestination(raw);
  return 'refusal' in parsed ? parsed.refusal : null;
}

/**
 * The check run when a URL is accepted (the connection repeats the address rule): the serialised URL
 * to store, or why it is refused.
 */
export async function checkDestination(raw: string): Promise<{ href: string } | { refusal: UrlRefusal }> {
  const parsed = parseDestination(raw);
  if ('refusal' in parsed) return parsed;
  const urlHost = new URL(parsed.href).hostname;
  const hostname = urlHost.replace(/^\[|\]$/g, '');
  if (isIP(hostname)) return addressAllowed(hostname, urlHost) ? parsed : { refusal: 'private_address' };
  try {
    const addresses = await resolveAll(hostname);
    return addresses.every((a) => addressAllowed(a.address, urlHost)) ? parsed : { refusal: 'private_address' };
  } catch {
    return { refusal: 'dns_refused' };
  }
}

interface AgentHolder {
  __identityOutboundAgent?: { key: string; agent: Agent; plain: HttpAgent };
}
const holder = globalThis as unknown as AgentHolder;

/**
 * One pair of keep-alive agents per process (connections are reused; each new one is checked by the
 * lookup): https for every destination, plain http for local receivers only.
 */
function agents(): { agent: Agent; plain: HttpAgent } {
  const { outboundCaFile: caFile, outboundAllowPrivateNetworks, localDevelopment } = getConfig();
  // A changed rule must not ride on connections opened under the old one.
  const key = `${caFile ?? ''}|${outboundAllowPrivateNetworks}|${localDevelopment}`;
  if (holder.__identityOutboundAgent?.key !== key) {
    holder.__identityOutboundAgent?.agent.destroy();
    holder.__identityOutboundAgent?.plain.destroy();
    const ca = caFile ? [...rootCertificates, readFileSync(caFile, 'utf8')] : undefined;
    holder.__identityOutboundAgent = {
      key,
      agent: new Agent({ keepAlive: true, maxSockets: 64, lookup: guardedLookup, ...(ca ? { ca } : {}) }),
      plain: new HttpAgent({ keepAlive: true, maxSockets: 64, lookup: guardedLookup }),
    };
  }
  return holder.__identityOutboundAgent;
}

function failureOf(error: NodeJS.ErrnoException): OutboundFailure {
  if (error instanceof RefusedAddress || error.code === 'EPRIVATE_ADDRESS') return 'private_address';
  if (error.code === 'ENOTFOUND' || error.code === 'EAI_AGAIN' || error.code === 'ENODATA') return 'dns_refused';
  if (error.code?.startsWith('ERR_TLS') || error.code?.includes('CERT') || error.code === 'DEPTH_ZERO_SELF_SIGNED_CERT') return 'tls_error';
  return 'network_error';
}

/** An exchange that produced an HTTP answer: its status, headers and (up to the kept bytes) body. */
export interface OutboundAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  /** The body was longer than the bytes kept (the connection was closed). */
  truncated: boolean;
  durationMs: number;
}

interface ExchangeOptions {
  headers?: Record<string, string>;
  body?: string;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Response bytes kept; beyond them the connection is closed and the answer marked truncated. */
  keepBytes: number;
}

/**
 * One request through the guard (never a redirect followed): the status and up to `keepBytes` of the
 * body, or a safe failure code. The whole exchange is bounded by `timeoutMs`; `signal` aborts it.
 */
export async function exchange(
  method: string,
  url: string,
  options: ExchangeOptions,
): Promise<OutboundAnswer | { failure: OutboundFailure; durationMs: number }> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const target = new URL(url);
  const literal = target.hostname.replace(/^\[|\]$/g, '');
  // An IP literal never goes through `lookup`: check it here.
  if (isIP(literal) && !addressAllowed(literal, target.hostname)) return { failure: 'private_address', durationMs: elapsed() };
  // Plain http only ever reaches a local receiver (an endpoint stored while developing locally stops
  // at once when local development is switched off).
  const plain = target.protocol === 'http:';
  if (plain && !isLocalReceiverHost(target.hostname)) return { failure: 'private_address', durationMs: elapsed() };
  const body = options.body;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: Omit<OutboundAnswer, 'durationMs'> | { failure: OutboundFailure }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      resolve({ ...outcome, durationMs: elapsed() });
    };
    const outgoing = (plain ? httpRequest : request)(target, {
      method,
      agent: plain ? agents().plain : agents().agent,
      lookup: guardedLookup,
      headers: { ...options.headers, ...(body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) }) },
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
      const kept: Buffer[] = [];
      let received = 0;
      let truncated = false;
      const answer = () => ({ status: incoming.statusCode ?? 0, headers: incoming.headers, body: Buffer.concat(kept), truncated });
      incoming.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received <= options.keepBytes) kept.push(chunk);
        else {
          kept.push(chunk.subarray(0, Math.max(0, chunk.length - (received - options.keepBytes))));
          truncated = true;
          incoming.destroy();
        }
      });
      incoming.on('end', () => finish(answer()));
      incoming.on('close', () => finish(answer()));
      incoming.on('error', () => finish(answer()));
    });
    outgoing.on('error', (error: NodeJS.ErrnoException) => finish({ failure: failureOf(error) }));
    outgoing.end(body);
  });
}

/**
 * POSTs `body` to `url` and answers the status (or a safe failure code). The response body is read
 * only a little and dropped; 3xx is answered as is (never followed).
 */
export async function postJson(
  url: string,
  headers: Record<string, string>,
  body: string,
  options: { timeoutMs: number; signal?: AbortSignal },
): Promise<OutboundResult> {
  const outcome = await exchange('POST', url, { headers, body, timeoutMs: options.timeoutMs, signal: options.signal, keepBytes: DRAIN_LIMIT });
  return 'failure' in outcome ? outcome : { status: outcome.status, durationMs: outcome.durationMs };
}
