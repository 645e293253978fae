import type { IncomingMessage } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { withEnv } from '@/tests/setup/state';
import { clientAddress, fromLoopbackPeer, stampPeer } from './client-address';

function stamped(peer: string, forwardedFor?: string): Headers {
  const req = { socket: { remoteAddress: peer }, headers: {} as Record<string, string> } as unknown as IncomingMessage;
  stampPeer(req);
  return new Headers({ ...(req.headers as Record<string, string>), ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}) });
}

let restore: (() => void) | null = null;
afterEach(() => restore?.());

describe('client address', () => {
  // ASVS V4.1.3
  it('uses the stamped socket peer, not a caller-supplied X-Forwarded-For', () => {
    expect(clientAddress(stamped('198.51.100.9', '203.0.113.1'))).toBe('198.51.100.9');
  });

  // ASVS V4.1.3
  it('ignores a forged peer stamp', () => {
    const headers = new Headers({ 'x-identity-peer': 'guess|203.0.113.5', 'x-forwarded-for': '198.51.100.20' });
    expect(clientAddress(headers)).toBe('198.51.100.20');
  });

  it('takes the address appended by the operator proxies when TRUSTED_PROXY_HOPS is set', () => {
    restore = withEnv({ TRUSTED_PROXY_HOPS: '1' });
    expect(clientAddress(stamped('10.0.0.2', 'spoofed, 203.0.113.77'))).toBe('203.0.113.77');
  });
});

describe('a request from this machine (development-only pages)', () => {
  it('is a stamped loopback peer, in IPv4, IPv6 or IPv4-mapped form', () => {
    for (const peer of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) expect(fromLoopbackPeer(stamped(peer)), peer).toBe(true);
  });

  it('is not a peer on the network, whatever X-Forwarded-For or a forged stamp says', () => {
    expect(fromLoopbackPeer(stamped('192.168.1.20', '127.0.0.1'))).toBe(false);
    expect(fromLoopbackPeer(stamped('10.0.0.2'))).toBe(false);
    expect(fromLoopbackPeer(new Headers({ 'x-identity-peer': 'guess|127.0.0.1' }))).toBe(false);
    expect(fromLoopbackPeer(new Headers({ 'x-forwarded-for': '127.0.0.1' }))).toBe(false);
  });

  it('is never claimed behind a proxy of ours, which may itself run on this machine', () => {
    restore = withEnv({ TRUSTED_PROXY_HOPS: '1' });
    expect(fromLoopbackPeer(stamped('127.0.0.1', '203.0.113.77'))).toBe(false);
  });
});
