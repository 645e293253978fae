/** The invitation table row by row: each move it allows, each guard's refusal, and every move it refuses. */
import { describe, expect, it } from 'vitest';
import { expectWellFormed, outcomeOf, walk, type Outcome } from '@/tests/helpers/transition-tables';
import { INVITATION_TRANSITIONS, type InvitationFacts, type InvitationState } from './invitations';
import { decide, onlyRowOf, transitionFor, unlistedPairs } from './table';

const PASSING: InvitationFacts = {
  create: { memberStatus: null, pendingInvitation: false },
  resend: {},
  revoke: {},
  accept: { invitedAddress: true },
  membership_revoked: {},
};

const conflict = (detail: string): Outcome => ({ refused: { status: 409, code: 'conflict', detail, extras: {} } });
const notFound = (detail: string): Outcome => ({ refused: { status: 404, code: 'not_found', detail, extras: {} } });
const NO_SUCH = notFound('No such invitation in this organization.');
const INVALID_LINK = notFound('This invitation link is not valid or has expired.');
const notResent = (state: string) => conflict(`This invitation is ${state}; only pending or expired invitations can be resent.`);
const notRevoked = (state: string) => conflict(`This invitation is ${state}; only pending invitations can be revoked.`);

describe('the invitation transition table', () => {
  it('has one row per state and event', () => {
    expectWellFormed(INVITATION_TRANSITIONS);
  });

  it('decides every state and event: the listed moves when their guards hold, a refusal for each other pair', async () => {
    expect(await walk(INVITATION_TRANSITIONS, PASSING)).toEqual({
      'none create': { to: 'pending' },
      'none resend': NO_SUCH,
      'none revoke': NO_SUCH,
      'none accept': INVALID_LINK,
      'none membership_revoked': NO_SUCH,
      'pending create': conflict('This invitation is pending.'),
      'pending resend': { to: 'pending' },
      'pending revoke': { to: 'revoked' },
      'pending accept': { to: 'accepted' },
      'pending membership_revoked': { to: 'revoked' },
      'expired create': conflict('This invitation is expired.'),
      'expired resend': { to: 'pending' },
      'expired revoke': notRevoked('expired'),
      'expired accept': INVALID_LINK,
      'expired membership_revoked': { to: 'revoked' },
      'accepted create': conflict('This invitation is accepted.'),
      'accepted resend': notResent('accepted'),
      'accepted revoke': notRevoked('accepted'),
      'accepted accept': INVALID_LINK,
      'accepted membership_revoked': conflict('This invitation is accepted.'),
      'revoked create': conflict('This invitation is revoked.'),
      'revoked resend': notResent('revoked'),
      'revoked revoke': notRevoked('revoked'),
      'revoked accept': INVALID_LINK,
      'revoked membership_revoked': conflict('This invitation is revoked.'),
    });
    expect(unlistedPairs(INVITATION_TRANSITIONS)).toHaveLength(25 - 7);
  });

  it('refuses an invitation to a current member or to an address already invited, in that order', async () => {
    const create = (facts: InvitationFacts['create']) => outcomeOf(decide(INVITATION_TRANSITIONS, 'none', 'create', facts));
    expect(await create({ memberStatus: 'active', pendingInvitation: true })).toEqual(
      conflict('This address already belongs to an active member of the organization.'),
    );
    expect(await create({ memberStatus: 'suspended', pendingInvitation: true })).toEqual(
      conflict('This address belongs to a suspended member: re-activate the membership instead.'),
    );
    expect(await create({ memberStatus: null, pendingInvitation: true })).toEqual(
      conflict('This address already has a pending invitation: resend it instead.'),
    );
  });

  it('refuses an acceptance from another address than the invited one, and says nothing of it', async () => {
    expect(await outcomeOf(decide(INVITATION_TRANSITIONS, 'pending', 'accept', { invitedAddress: false }))).toEqual({
      refused: {
        status: 403,
        code: 'forbidden',
        detail: 'This invitation was sent to another e-mail address. Sign in with the account that uses the invited address.',
        extras: {},
      },
    });
  });

  it('names what each move records', () => {
    const effects = (state: InvitationState, event: keyof InvitationFacts) => transitionFor(INVITATION_TRANSITIONS, state, event).effects;
    expect(effects('none', 'create')).toEqual({ audit: 'invitation.created', emits: ['identity.organization.invitation.created'] });
    expect(effects('pending', 'resend')).toEqual({ audit: 'invitation.resent', emits: [] });
    expect(effects('expired', 'resend')).toEqual({ audit: 'invitation.resent', emits: [] });
    expect(effects('pending', 'revoke')).toEqual({ audit: 'invitation.revoked', emits: [] });
    expect(effects('pending', 'accept')).toEqual({ audit: 'invitation.accepted', emits: ['identity.organization.invitation.accepted'] });
    // The membership's revocation records itself; its invitations go quietly.
    expect(effects('expired', 'membership_revoked')).toEqual({ audit: null, emits: [] });
  });

  it("moves a revoked member's invitations in one write over every stored pending one (expired included)", () => {
    expect(onlyRowOf(INVITATION_TRANSITIONS, 'membership_revoked')).toMatchObject({ from: ['pending', 'expired'], to: 'revoked' });
  });
});
