/** Which addresses outbound requests may reach, and the URL shapes refused before any lookup. */
import { describe, expect, it } from 'vitest';
import { isPublicAddress, urlShapeRefusal } from './outbound';

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

  it('allows public unicast addresses', () => {
    for (const address of ['93.184.216.34', '1.1.1.1', '2606:4700:4700::1111', '::ffff:93.184.216.34']) expect(isPublicAddress(address), address).toBe(true);
  });

  it('refuses non-https, credentials, fragments and over-long URLs before resolving anything', () => {
    expect(urlShapeRefusal('https://example.com/hook?x=1')).toBeNull();
    expect(urlShapeRefusal('http://example.com/')).toBe('not_https');
    expect(urlShapeRefusal('https://a:b@example.com/')).toBe('credentials');
    expect(urlShapeRefusal('https://example.com/#x')).toBe('fragment');
    expect(urlShapeRefusal(`https://example.com/${'a'.repeat(2048)}`)).toBe('too_long');
    expect(urlShapeRefusal('nope')).toBe('invalid_url');
  });
});
