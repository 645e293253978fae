import { describe, expect, it } from 'vitest';
import { instant, instantText } from './instant';

describe('an instant on the wire', () => {
  it('takes RFC 3339 with Z or an offset, as a Date', () => {
    expect(instant.parse('2026-11-26T10:00:00+10:00')).toEqual(new Date('2026-11-26T00:00:00Z'));
    expect(instantText.parse('0001-01-01T00:00:00Z')).toBe('0001-01-01T00:00:00Z');
    expect(instantText.parse('9999-12-31T23:59:59Z')).toBe('9999-12-31T23:59:59Z');
  });

  it('refuses what the database cannot hold: a year 0 in UTC, or past 9999', () => {
    expect(instantText.safeParse('0000-02-29T20:00:00+10:00').success).toBe(false);
    expect(instantText.safeParse('0001-01-01T00:00:00+01:00').success).toBe(false);
    expect(instant.safeParse('9999-12-31T23:00:00-10:00').success).toBe(false);
  });

  it('refuses text without a zone', () => {
    expect(instantText.safeParse('2026-11-26T10:00:00').success).toBe(false);
  });
});
