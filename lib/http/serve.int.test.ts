import { describe, expect, it } from 'vitest';
import { serve } from './serve';
import { ORIGIN } from '@/tests/helpers/http';

const post = (body: string) =>
  serve('/oauth/authorize').POST(
    new Request(`${ORIGIN}/oauth/authorize`, { method: 'POST', headers: { origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded' }, body }),
    { params: Promise.resolve({}) },
  );

describe('a path whose operations are chosen by the form body', () => {
  it('answers an oversized form 413 (found hanging by the bad-input properties: the peeked copy stalled the body)', async () => {
    const response = await post(`interaction_id=x&decision=${'%C3%A9'.repeat(20_000)}`);
    expect(response.status).toBe(413);
    expect((await response.json()).code).toBe('payload_too_large');
  });

  it('still hands each form to its operation with its whole body', async () => {
    // No interaction_id: an authorization request sent as a form, answered with a 303 to the same GET.
    const request = await post(`client_id=app&response_type=code&state=${'s'.repeat(5_000)}`);
    expect(request.status).toBe(303);
    expect(request.headers.get('location')).toContain(`state=${'s'.repeat(5_000)}`);
    // With one: the consent decision, which needs a session.
    expect((await post('interaction_id=x&decision=approve')).status).toBe(401);
  });
});
