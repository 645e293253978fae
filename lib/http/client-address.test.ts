import type { IncomingMessage } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { withEnv } from '@/tests/setup/state';
import { clientAddress, stampPeer } from './client-address';

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
