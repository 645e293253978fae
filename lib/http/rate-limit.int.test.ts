/**
 * Rate-limit headers tell the caller about its own use (its client bucket) and nothing about an
 * e-mail address or account that anyone can name (subject buckets). Times are injected, so every
 * request below falls in the same windows.
 */
import { describe, expect, it } from 'vitest';
import { post, useMailbox } from '@/tests/helpers/accounts';

useMailbox();
const at = (time: string) => () => new Date(`2031-03-03T${time}Z`);
const OWNER = 'used-address@example.test';

/** The rate-limit headers of an answer. */
const rateHeaders = (response: Response) => ({
  policy: response.headers.get('ratelimit-policy'),
  remaining: response.headers.get('ratelimit'),
  retryAfter: response.headers.get('retry-after'),
});

describe('rate-limit headers of subject buckets', () => {
  it('answer a used address exactly like a fresh one on e-mail code start, enrollment start and password sign-in', async () => {
    // Someone used the owner's address a little: two code sign-ins, two enrollments, two wrong passwords.
    for (let i = 0; i < 2; i++) {
      expect((await post('/api/auth/signin/email-otp/start', { email: OWNER }, { now: at('10:00:01') })).status).toBe(202);
      expect((await post('/api/auth/enrollment/start', { email: OWNER }, { now: at('10:00:01') })).status).toBe(202);
      expect((await post('/api/auth/signin/password', { email: OWNER, password: 'not the password' }, { now: at('10:00:01') })).status).toBe(401);
    }

    const surfaces: [string, Record<string, string>, string][] = [
      ['/api/auth/signin/email-otp/start', {}, '"enrollment_start";q=30;w=3600'],
      ['/api/auth/enrollment/start', {}, '"enrollment_start";q=30;w=3600'],
      ['/api/auth/signin/password', { password: 'still not the password' }, '"signin";q=10;w=60'],
    ];
    for (const [path, extra, clientPolicy] of surfaces) {
      const used = await post(path, { email: OWNER, ...extra }, { now: at('10:00:02') });
      const fresh = await post(path, { email: 'fresh-address@example.test', ...extra }, { now: at('10:00:02') });
      expect(used.status, path).toBe(fresh.status);
      expect(rateHeaders(used), path).toEqual(rateHeaders(fresh));
      // Only the caller's own client bucket is described.
      expect(rateHeaders(used).policy, path).toBe(clientPolicy);
    }
  });

  it('answer a spent address bucket with Retry-After, describing only the caller’s client bucket', async () => {
    const email = 'spent-address@example.test';
    for (let i = 0; i < 5; i++) expect((await post('/api/auth/signin/email-otp/start', { email }, { now: at('11:00:10') })).status).toBe(202);
    const refused = await post('/api/auth/signin/email-otp/start', { email }, { now: at('11:00:10') });
    expect(refused.status).toBe(429);
    expect(rateHeaders(refused)).toEqual({ policy: '"enrollment_start";q=30;w=3600', remaining: '"enrollment_start";r=29;t=3590', retryAfter: '3590' });
  });
});
