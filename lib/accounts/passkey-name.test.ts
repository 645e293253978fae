import { describe, expect, it } from 'vitest';
import { newPasskeyName } from './passkey-name';

const NOV_23 = new Date('2026-11-23T22:30:00Z');

describe('newPasskeyName', () => {
  it('reads the AAGUID in any case and dates the passkey in UTC', () => {
    expect(newPasskeyName({ aaguid: 'FBFC3007-154E-4ECC-8C0B-6E020557D7BD', device: 'Safari on iOS', now: NOV_23 })).toBe('iCloud Keychain · 23 Nov 2026');
  });

  it('stays within the 64 characters a passkey name may have', () => {
    const name = newPasskeyName({ aaguid: '00000000-0000-0000-0000-000000000000', device: 'x'.repeat(100), now: NOV_23 });
    expect(name).toHaveLength(64);
    expect(name.endsWith(' · 23 Nov 2026')).toBe(true);
  });
});
