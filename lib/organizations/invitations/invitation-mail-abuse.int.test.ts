/**
 * Invitation mails as an abuse channel, at the real (unscaled) limits: anyone may create an
 * organization, so without a bound one account could have the service mail any address without end
 * (resending one invitation again and again, or inviting address after address).
 */
import { describe, expect, it } from 'vitest';
import { RATE_LIMIT_BUCKETS } from '@/lib/contract/rate-limits';
import { useMailbox } from '@/tests/helpers/accounts';
import { problemOf } from '@/tests/helpers/http';
import { asBrowser, createOrganization, invite, person } from '@/tests/helpers/organizations';

const mailbox = useMailbox({ RATE_LIMIT_SCALE: '1' });
const LIMIT = RATE_LIMIT_BUCKETS.invitation_mail.limit;

describe('invitation mails per inviting account', () => {
  it('bounds resends of one invitation to a victim address, and new invitations alike', async () => {
    const spammer = await person(mailbox, 'spammer');
    const id = await createOrganization(spammer);
    const victim = `victim.${Date.now()}@example.test`;
    const { id: invitationId } = await invite(spammer, id, victim, 'member', mailbox);
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT; i += 1) {
      const response = await asBrowser(spammer.browser, 'POST', '/api/organizations/{id}/invitations/{invitation_id}', {
        params: { id, invitation_id: invitationId },
        body: {},
      });
      statuses.push(response.status);
    }
    // The first invitation counted too: the last resend is one past the limit.
    expect(statuses.slice(0, LIMIT - 1).every((s) => s === 200)).toBe(true);
    const refused = await asBrowser(spammer.browser, 'POST', '/api/organizations/{id}/invitations/{invitation_id}', {
      params: { id, invitation_id: invitationId },
      body: {},
    });
    expect(refused.status).toBe(429);
    expect((await problemOf(refused)).code).toBe('rate_limited');
    const another = await asBrowser(spammer.browser, 'POST', '/api/organizations/{id}/invitations', {
      params: { id },
      body: { email: `other.${Date.now()}@example.test`, role: 'member' },
    });
    expect(another.status).toBe(429);
    expect(mailbox.messages.filter((m) => m.to.includes(victim)).length).toBeLessThanOrEqual(LIMIT);
  });
});
