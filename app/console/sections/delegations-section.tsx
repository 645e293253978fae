'use client';

import { useState, type FormEvent } from 'react';
import { StatusNote } from '../../_components/auth/error-alert';
import { LocalTime } from '../../_components/auth/local-time';
import { fieldValue } from '../../_components/auth/use-api-action';
import { RemoveConfirmation } from '@/app/_components/confirmation';
import { DELEGABLE_PERMISSIONS, type Permission } from '@/lib/contract/permissions';
import { CONTRACTS } from '@/lib/http/contracts';
import { useCollection, useConsoleAction, useConsoleApi } from '../console-api';
import type { Api } from '../../_components/api/use-api';
import { useConsole } from '../console-context';
import { checkedValues, CollectionState, PermissionChoices, SelectField, TextField, useSectionStatus } from '../console-ui';
import type { Delegation } from '../contract-types';

/** A datetime-local value (the reader's own time) as an ISO instant, or undefined when empty or unreadable. */
export function localToIso(value: string): string | undefined {
  if (!value) return undefined;
  const time = new Date(value);
  return Number.isNaN(time.getTime()) ? undefined : time.toISOString();
}

/**
 * Delegated admins: permissions granted to a member on top of their role, optionally until a time.
 * Only an owner grants (the API may also require an approval); delegations.manage sees and revokes.
 */
export function DelegationsSection() {
  const { organization, isOwner } = useConsole();
  const params = { id: organization.id };
  const grants = useCollection(CONTRACTS.listOrganizationDelegatedAdmins, { params });
  const { heading, note, setNote, changed } = useSectionStatus(grants.reload);
  const members = useCollection(CONTRACTS.listOrganizationMembers, isOwner ? { params, query: { status: 'active' } } : null);
  const { api, panel } = useConsoleApi();
  const grant = useConsoleAction(['membership_id', 'permissions', 'expires_at']);

  async function create(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setNote(null);
    const form = event.currentTarget;
    const raw = fieldValue(form, 'expires_at');
    const expiresAt = localToIso(raw);
    if (raw && !expiresAt) {
      grant.setError('Enter a valid date and time for the expiry, or leave it empty.');
      return;
    }
    const body = {
      membership_id: fieldValue(form, 'membership_id'),
      // The boxes offer exactly the catalogue's permissions.
      permissions: checkedValues(form, 'permissions') as Permission[],
      ...(expiresAt ? { expires_at: expiresAt } : {}),
    };
    const result = await grant.run(() => api.createOrganizationDelegatedAdmin({ params, body }));
    if (!result?.ok) return;
    form.reset();
    await changed(`${result.body.email} now holds ${result.body.permissions.join(', ')}.`);
  }

  const choices = (members.items ?? []).map((member) => ({
    value: member.id,
    label: member.display_name ? `${member.display_name} (${member.email})` : member.email,
  }));

  return (
    <section aria-labelledby="delegations-heading">
      <h2 id="delegations-heading" ref={heading} tabIndex={-1}>
        Delegated admins
      </h2>
      <p className="hint">Extra permissions held by members beyond their role. {isOwner ? '' : 'Only an owner can grant them; you can see and revoke them.'}</p>
      {isOwner && (
        <form className="stack card" onSubmit={create} aria-label="Grant permissions">
          <h3 className="console-form-title">Grant permissions to a member</h3>
          <SelectField label="Member" name="membership_id" choices={choices} required placeholder="Choose a member" error={grant.fieldErrors.membership_id} />
          <PermissionChoices legend="Permissions to grant" name="permissions" permissions={DELEGABLE_PERMISSIONS} error={grant.fieldErrors.permissions} />
          <TextField
            label="Expires (optional)"
            name="expires_at"
            type="datetime-local"
            error={grant.fieldErrors.expires_at}
            hint="In your own time zone. Left empty, the grant lasts until it is revoked."
          />
          {grant.alert}
          <div>
            <button type="submit" disabled={grant.pending}>
              Grant
            </button>
          </div>
        </form>
      )}
      <CollectionState {...grants} empty={<p>No delegated grants. {isOwner ? 'Grant permissions with the form above.' : ''}</p>}>
        <ul className="auth-list">
          {grants.items?.map((delegation) => (
            <DelegationRow key={delegation.id} delegation={delegation} api={api} onChanged={changed} />
          ))}
        </ul>
      </CollectionState>
      <StatusNote message={note} />
      {panel}
    </section>
  );
}

function DelegationRow({ delegation, api, onChanged }: { delegation: Delegation; api: Api; onChanged: (message: string) => Promise<void> }) {
  const { organization } = useConsole();
  const [confirming, setConfirming] = useState(false);
  const { pending, run, alert } = useConsoleAction();

  async function revoke() {
    const result = await run(() => api.revokeOrganizationDelegatedAdmin({ params: { id: organization.id, delegation_id: delegation.id } }));
    setConfirming(false);
    if (result?.ok) await onChanged(`The grant to ${delegation.email} is revoked.`);
  }

  return (
    <li className="card auth-item">
      <div className="auth-item-main">
        <p className="auth-item-title auth-email">
          <strong>{delegation.email}</strong> <span className={`badge${delegation.status === 'active' ? ' badge-ready' : ''}`}>{delegation.status}</span>
        </p>
        <p className="hint">
          {delegation.permissions.join(', ')}
          <br />
          Granted <LocalTime iso={delegation.created_at} />
          {delegation.expires_at ? (
            <>
              {' '}
              · until <LocalTime iso={delegation.expires_at} />
            </>
          ) : (
            ' · no expiry'
          )}
        </p>
      </div>
      {delegation.status === 'active' &&
        (confirming ? (
          <RemoveConfirmation
            question={`Revoke the grant to ${delegation.email}?`}
            consequence="They keep what their role allows and lose these extra permissions at once."
            confirmLabel="Revoke grant"
            pending={pending}
            onConfirm={revoke}
            onCancel={() => setConfirming(false)}
          />
        ) : (
          <div className="auth-actions">
            <button type="button" className="auth-secondary auth-danger" onClick={() => setConfirming(true)} disabled={pending}>
              Revoke
            </button>
          </div>
        ))}
      {alert}
    </li>
  );
}
