import { createHmac, randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { getConfig } from '@/lib/config';
import { isLoopbackAddress } from '@/lib/platform';

/**
 * Next.js keeps a caller-supplied X-Forwarded-For as it is (`??=`), so behind no proxy the header is
 * whatever the client wants. To key rate limits on the real peer, the server stamps every incoming
 * request with the socket address, authenticated by a per-process nonce a client cannot know
 * (front-door.ts, installed at start-up). With TRUSTED_PROXY_HOPS=N the Nth address from
 * the right of X-Forwarded-For (as appended by the operator's own proxies) is used instead.
 */
const PEER_HEADER = 'x-identity-peer';
const state = globalThis as unknown as { __identityPeerNonce?: string };

function nonce(): string {
  state.__identityPeerNonce ??= randomBytes(16).toString('hex');
  return state.__identityPeerNonce;
}

export function stampPeer(req: IncomingMessage): void {
  const address = req.socket?.remoteAddress ?? 'unknown';
  req.headers[PEER_HEADER] = `${nonce()}|${address}`;
}

export function clientAddress(headers: Headers): string {
  const hops = getConfig().trustedProxyHops;
  const stamped = headers.get(PEER_HEADER);
  const [stampNonce, peer] = stamped?.split('|', 2) ?? [];
  const trustedPeer = stampNonce === state.__identityPeerNonce && peer ? peer : null;
  const forwarded = (headers.get('x-forwarded-for') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (hops > 0 && forwarded.length >= hops) return forwarded[forwarded.length - hops]!;
  // Without a stamp (tests calling the pipeline in-process, or the very first request before the
  // stamp was installed) fall back to the rightmost forwarded address.
  return trustedPeer ?? forwarded.at(-1) ?? 'unknown';
}

/**
 * True only when the request comes straight from this machine: the stamp (which a client cannot
 * forge) names a loopback socket peer, and no proxy of ours stands in between (with
 * TRUSTED_PROXY_HOPS set, the peer is the proxy, which may well be local). For development-only pages.
 */
export function fromLoopbackPeer(headers: Headers): boolean {
  if (getConfig().trustedProxyHops > 0) return false;
  const [stampNonce, peer] = headers.get(PEER_HEADER)?.split('|', 2) ?? [];
  return state.__identityPeerNonce !== undefined && stampNonce === state.__identityPeerNonce && peer !== undefined && isLoopbackAddress(peer);
}

/** Keyed hash for rate-limit subjects: raw addresses (network or e-mail) are never stored. */
export function keyedHash(value: string): string {
  return createHmac('sha256', getConfig().sessionSecret).update(value).digest('base64url').slice(0, 32);
}

export function clientKey(headers: Headers): string {
  return keyedHash(`client:${clientAddress(headers)}`);
}

/**
 * The client's network: an IPv4 /24 or an IPv6 /64 (an IPv4-mapped address counts as IPv4). A device
 * moving within its network (DHCP, privacy addresses) keeps its binding; another network does not.
 */
export function networkPrefix(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  const v4 = mapped ? mapped[1]! : address;
  if (/^\d+\.\d+\.\d+\.\d+$/.test(v4)) return `${v4.split('.').slice(0, 3).join('.')}.0/24`;
  if (!address.includes(':')) return address;
  const [head, tail = ''] = address.toLowerCase().split('::', 2);
  const left = head ? head.split(':') : [];
  const right = address.includes('::') && tail ? tail.split(':') : [];
  const groups = address.includes('::') ? [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

/**
 * The device binding of a request, as a keyed hash: the user agent plus the client's network prefix.
 * Recorded on every new session; an organization's `session.binding` policy compares the two.
 */
export function deviceBinding(headers: Headers): string {
  return keyedHash(`binding:${headers.get('user-agent') ?? ''}|${networkPrefix(clientAddress(headers))}`);
}
