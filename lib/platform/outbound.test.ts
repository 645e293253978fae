/** Which addresses outbound requests may reach, and the URL shapes refused before any lookup. */
import { describe, expect, it } from 'vitest';
import { withEnv } from '@/tests/setup/state';
import { isLoopbackAddress, isPublicAddress, parseDestination, urlShapeRefusal } from './outbound';

describe('the SSRF address rule', () => {
  it('refuses loopback, private, CGNAT, link-local, metadata, ULA, multicast, unspecified and their IPv4-mapped forms', () => {
    for (const address of [
      '127.0.0.1',
      '10.0.0.1',
      '172.16.5.4',
      '192.168.1.1',
      '100.64.0.1',
      '169.254.169.254',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::',
      '::1',
      'fe80::1',
      'fc00::1',
      'fd00:ec2::254',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:169.254.169.254',
      '64:ff9b::10.0.0.1',
      'not-an-address',
    ]) {
      expect(isPublicAddress(address), address).toBe(false);
    }
  });

  it('refuses the IPv6 special-purpose ranges that route to or embed non-public destinations', () => {
    for (const address of [
      '::7f00:1', // IPv4-compatible ::/96 (127.0.0.1)
      '::127.0.0.1',
      '::a00:1', // IPv4-compatible 10.0.0.1
      '::8.8.8.8', // IPv4-compatible, even for a public IPv4: deprecated, never a real destination
      '64:ff9b:1::a00:1', // local-use IPv4/IPv6 translation 64:ff9b:1::/48
      '64:ff9b:1:ffff::1',
      '2002:7f00:1::1', // 6to4 2002::/16 (127.0.0.1 embedded)
      '2002:808:808::1', // 6to4 with a public IPv4: still refused, it relays through a tunnel
      '2001:0:4136:e378:8000:63bf:3fff:fdd2', // Teredo 2001::/32
      '2001:2::1', // benchmarking 2001:2::/48
      '2001:10::1', // ORCHID
      '2001:db8::1', // documentation
      '3fff::1', // documentation (RFC 9637)
      '100::1', // discard-only
      '5f00::1', // SRv6 SIDs
      'fec0::1', // site-local
      '0:0:0:0:0:0:0:1', // loopback in its long spelling
      'fe80::1%eth0', // link-local with a zone id
    ]) {
      expect(isPublicAddress(address), address).toBe(false);
    }
  });

  it('judges IPv4-mapped, SIIT and NAT64 forms by the IPv4 address they carry, in every spelling', () => {
    for (const v4 of [
      '127.0.0.1',
      '10.0.0.1',
      '100.64.0.1',
      '169.254.169.254',
      '172.16.0.1',
      '192.0.0.1',
      '192.0.2.1',
      '192.88.99.1',
      '192.168.0.1',
      '198.18.0.1',
      '198.51.100.1',
      '203.0.113.1',
      '224.0.0.1',
      '240.0.0.1',
      '0.0.0.0',
    ]) {
      expect(isPublicAddress(v4), v4).toBe(false);
      for (const form of [`::ffff:${v4}`, `0:0:0:0:0:ffff:${v4}`, `::ffff:0:${v4}`, `64:ff9b::${v4}`]) expect(isPublicAddress(form), form).toBe(false);
    }
    expect(isPublicAddress('0000:0000:0000:0000:0000:ffff:7f00:0001')).toBe(false);
    for (const form of ['::ffff:8.8.8.8', '0:0:0:0:0:ffff:808:808', '64:ff9b::8.8.8.8']) expect(isPublicAddress(form), form).toBe(true);
  });

  it('allows public unicast addresses', () => {
    for (const address of ['93.184.216.34', '1.1.1.1', '2606:4700:4700::1111', '2001:4860:4860::8888', '2a00:1450:4001:80b::200e', '::ffff:93.184.216.34'])
      expect(isPublicAddress(address), address).toBe(true);
  });

  it('refuses non-https, credentials, fragments and over-long URLs before resolving anything', () => {
    expect(urlShapeRefusal('https://example.com/hook?x=1')).toBeNull();
    expect(urlShapeRefusal('http://example.com/')).toBe('not_https');
    expect(urlShapeRefusal('https://a:b@example.com/')).toBe('credentials');
    expect(urlShapeRefusal('https://example.com/#x')).toBe('fragment');
    expect(urlShapeRefusal(`https://example.com/${'a'.repeat(2048)}`)).toBe('too_long');
    expect(urlShapeRefusal('nope')).toBe('invalid_url');
  });

  it('refuses control characters and surrounding spaces, and gives the URL in its serialised form', () => {
    for (const raw of [
      'https://example.com/a\r\nb',
      'https://example.com/\n',
      ' https://example.com/',
      'https://example.com/ ',
      'https://exa\tmple.com/',
      'https://example.com/\u007f',
      'https://example.com/a b',
    ]) {
      expect(urlShapeRefusal(raw), JSON.stringify(raw)).toBe('control_characters');
    }
    expect(parseDestination('https://127。0。0。1/hook')).toEqual({ href: 'https://127.0.0.1/hook' });
    expect(parseDestination('HTTPS://Example.COM:443/a/../b?c=1')).toEqual({ href: 'https://example.com/b?c=1' });
    expect(parseDestination('https://bücher.example/')).toEqual({ href: 'https://xn--bcher-kva.example/' });
  });
});

describe('local receivers while developing locally', () => {
  const under = (env: Record<string, string | undefined>, check: () => void) => {
    const restore = withEnv(env);
    try {
      check();
    } finally {
      restore();
    }
  };

  it('knows the loopback interface in its spellings, and nothing else', () => {
    for (const address of ['127.0.0.1', '127.9.9.9', '::1', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1']) expect(isLoopbackAddress(address), address).toBe(true);
    for (const address of ['10.0.0.1', '169.254.169.254', '::', 'fe80::1', '0.0.0.0', 'localhost', '1.1.1.1'])
      expect(isLoopbackAddress(address), address).toBe(false);
  });

  it('takes plain http to localhost, 127.0.0.1 and [::1] on the embedded default only', () => {
    const local = ['http://localhost:4000/hook', 'http://127.0.0.1:4000/hook', 'http://[::1]:4000/hook', 'http://LOCALHOST:4000/hook'];
    under({ DATABASE_URL: 'memory:', LOCAL_DEVELOPMENT: undefined }, () => {
      for (const url of local) expect(urlShapeRefusal(url), url).toBeNull();
      for (const url of ['http://example.com/', 'http://127.0.0.2/', 'http://10.0.0.1/', 'http://localhost.example.com/'])
        expect(urlShapeRefusal(url), url).toBe('not_https');
    });
    under({ DATABASE_URL: 'postgres://db.internal/identity', LOCAL_DEVELOPMENT: undefined }, () => {
      for (const url of local) expect(urlShapeRefusal(url), url).toBe('not_https');
    });
    under({ DATABASE_URL: 'memory:', LOCAL_DEVELOPMENT: 'false' }, () => {
      for (const url of local) expect(urlShapeRefusal(url), url).toBe('not_https');
    });
  });
});
