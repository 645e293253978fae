'use client';

import { useState, type FormEvent } from 'react';
import { StatusNote } from '../../_components/auth/error-alert';
import { LocalTime } from '../../_components/auth/local-time';
import { fieldValue } from '../../_components/auth/use-api-action';
import { RemoveConfirmation } from '@/app/_components/confirmation';
import { CONTRACTS } from '@/lib/http/contracts';
import { useCollection, useConsoleAction, useConsoleApi } from '../console-api';
import { useConsole } from '../console-context';
import type { Api } from '../../_components/api/use-api';
import { CollectionState, SelectField, TextField, type Choice, useSectionStatus } from '../console-ui';
import { useRoleChoices } from '../role-choices';
import type { Invitation } from '../contract-types';

const STATUS_FILTERS: Choice[] = [
  { value: 'pending', label: 'Pending' },
  { value: 'accepted', label: 'Accepted' },
  { value: 'expired', label: 'Expired' },
  { value: 'revoked', label: 'Revoked' },
];

/** Invite by e-mail with a role; pending invitations can be sent again (new link, new expiry) or revoked. */
export function InvitationsSection() {
  const [status, setStatus] = useState('pending');
  const { organization } = useConsole();
  const invitations = useCollection(CONTRACTS.listOrganizationInvitations, {
    params: { id: organization.id },
    query: status ? { status: status as Invitation['status'] } : {},
  });
  const { heading, note, setNote, changed } = useSectionStatus(invitations.reload);
  const { choices } = useRoleChoices();
  const { api, panel } = useConsoleApi();
  const invite = useConsoleAction(['email', 'role']);

  async function create(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setNote(null);
    const form = event.currentTarget;
    const body = { email: fieldValue(form, 'email'), role: fieldValue(form, 'role') };
    const result = await invite.run(() => api.createOrganizationInvitation({ params: { id: organization.id }, body }));
    if (!result?.ok) return;
    form.reset();
    await changed(`Invitation sent to ${result.body.email}.`);
  }

  return (
    <section aria-labelledby="invitations-heading">
      <h2 id="invitations-heading" ref={heading} tabIndex={-1}>
        Invitations
      </h2>
      <p className="hint">The invitation link goes by e-mail only and works once. Sending and revoking ask you to confirm it&rsquo;s you.</p>

      <form className="stack card" onSubmit={create} aria-label="Invite someone">
        <h3 className="console-form-title">Invite someone</h3>
        <TextField
          label="E-mail address"
          name="email"
          type="email"
          autoComplete="email"
          required
          maxLength={254}
          spellCheck={false}
          error={invite.fieldErrors.email}
        />
        <SelectField label="Role" name="role" choices={choices} defaultValue="member" required error={invite.fieldErrors.role} key={choices.length} />
        {invite.alert}
        <div>
          <button type="submit" disabled={invite.pending || choices.length === 0}>
            Send invitation
          </button>
        </div>
      </form>

      <div className="console-filters">
        <SelectField label="Show" name="status" choices={STATUS_FILTERS} value={status} onChange={setStatus} placeholder="All invitations" />
      </div>
      <CollectionState {...invitations} empty={<p>No invitations here. Invite someone with the form above.</p>}>
        <ul className="auth-list">
          {invitations.items?.map((invitation) => (
            <InvitationRow key={invitation.id} invitation={invitation} api={api} onChanged={changed} />
          ))}
        </ul>
      </CollectionState>
      <StatusNote message={note} />
      {panel}
    </section>
  );
}

function InvitationRow({ invitation, api, onChanged }: { invitation: Invitation; api: Api; onChanged: (message: string) => Promise<void> }) {
  const [confirming, setConfirming] = useState(false);
  const { pending, run, alert } = useConsoleAction();
  const params = { id: useConsole().organization.id, invitation_id: invitation.id };

  async function resend() {
    const result = await run(() => api.resendOrganizationInvitation({ params, body: {} }));
    if (result?.ok) await onChanged(`A new invitation went to ${invitation.email}; the earlier link no longer works.`);
  }

  async function revoke() {
    const result = await run(() => api.revokeOrganizationInvitation({ params }));
    setConfirming(false);
    if (result?.ok) await onChanged(`The invitation for ${invitation.email} is revoked.`);
  }

  return (
    <li className="card auth-item">
      <div className="auth-item-main">
        <p className="auth-item-title auth-email">
          <strong>{invitation.email}</strong> <span className="badge">{invitation.status}</span>
        </p>
        <p className="hint">
          {invitation.role_name} · sent <LocalTime iso={invitation.created_at} />
          {invitation.status === 'pending' && (
            <>
              {' '}
              · expires <LocalTime iso={invitation.expires_at} />
            </>
          )}
        </p>
      </div>
      {(invitation.status === 'pending' || invitation.status === 'expired') && !confirming && (
        <div className="auth-actions">
          <button type="button" className="auth-secondary" onClick={resend} disabled={pending}>
            Send again
          </button>
          {invitation.status === 'pending' && (
            <button type="button" className="auth-secondary auth-danger" onClick={() => setConfirming(true)} disabled={pending}>
              Revoke
            </button>
          )}
        </div>
      )}
      {confirming && (
        <RemoveConfirmation
          question={`Revoke the invitation for ${invitation.email}?`}
          consequence="Its link stops working. You can invite the address again later."
          confirmLabel="Revoke invitation"
          pending={pending}
          onConfirm={revoke}
          onCancel={() => setConfirming(false)}
        />
      )}
      {alert}
    </li>
  );
}
