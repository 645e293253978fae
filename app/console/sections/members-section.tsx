'use client';

import { DirectoryBadge } from '../directory-badge';
import { useEffect, useRef, useState } from 'react';
import { StatusNote } from '../../_components/auth/error-alert';
import { LocalTime } from '../../_components/auth/local-time';
import { RemoveConfirmation } from '@/app/_components/confirmation';
import { CONTRACTS } from '@/lib/http/contracts';
import { useCollection, useConsoleAction, useConsoleApi } from '../console-api';
import type { Api } from '../../_components/api/use-api';
import { useConsole } from '../console-context';
import { CollectionState, SelectField, type Choice, useSectionStatus } from '../console-ui';
import { useRoleChoices } from '../role-choices';
import type { Member, MemberStatus } from '../contract-types';

const STATUS_FILTERS: Choice[] = [
  { value: 'active', label: 'Active' },
  { value: 'suspended', label: 'Suspended' },
  { value: 'revoked', label: 'Removed' },
];

const STATUS_LABELS: Record<MemberStatus, string> = { active: 'Active', suspended: 'Suspended', revoked: 'Removed' };

/** Members with their role and status; members.manage changes roles, suspends, reactivates and removes. */
export function MembersSection() {
  const { organization, can } = useConsole();
  // Empty: the API lists active and suspended members, which is what the filter's first choice says.
  const [status, setStatus] = useState('');
  const members = useCollection(CONTRACTS.listOrganizationMembers, {
    params: { id: organization.id },
    query: status ? { status: status as MemberStatus } : {},
  });
  const { heading, note, changed } = useSectionStatus(members.reload);
  const { choices } = useRoleChoices();
  const { api, panel } = useConsoleApi();
  const manage = can('members.manage');

  return (
    <section aria-labelledby="members-heading">
      <h2 id="members-heading" ref={heading} tabIndex={-1}>
        Members
      </h2>
      <p className="hint">
        People in this organization and their roles. {manage ? 'Changes ask you to confirm it’s you.' : 'Your role lets you see members but not change them.'}
      </p>
      <div className="console-filters">
        <SelectField label="Show" name="status" choices={STATUS_FILTERS} value={status} onChange={setStatus} placeholder="Active and suspended" />
      </div>
      <CollectionState
        {...members}
        empty={
          <p>
            {status === '' ? 'No members yet.' : 'Nobody with this status.'} {can('invitations.manage') ? 'Invite people from the Invitations section.' : ''}
          </p>
        }
      >
        <ul className="auth-list">
          {members.items?.map((member) => (
            <MemberRow key={`${member.id}:${member.role}:${member.status}`} member={member} roles={choices} manage={manage} api={api} onChanged={changed} />
          ))}
        </ul>
      </CollectionState>
      <StatusNote message={note} />
      {panel}
    </section>
  );
}

function MemberRow({
  member,
  roles,
  manage,
  api,
  onChanged,
}: {
  member: Member;
  roles: Choice[];
  manage: boolean;
  api: Api;
  onChanged: (message: string) => Promise<void>;
}) {
  const { userId } = useConsole();
  const [role, setRole] = useState(member.role);
  // The change waiting for its "Are you sure?": suspending and removing both end the member's access.
  const [confirming, setConfirming] = useState<'suspend' | 'remove' | null>(null);
  // Backing out of a confirmation puts focus back on the button that asked for it.
  const [backedOut, setBackedOut] = useState<{ from: 'suspend' | 'remove' } | null>(null);
  const statusButton = useRef<HTMLButtonElement>(null);
  const removeButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (backedOut) (backedOut.from === 'suspend' ? statusButton : removeButton).current?.focus();
  }, [backedOut]);

  function backOut() {
    if (confirming) setBackedOut({ from: confirming });
    setConfirming(null);
  }
  const { pending, run, alert } = useConsoleAction(['role', 'status']);
  const name = member.display_name ?? member.email;
  const params = { id: useConsole().organization.id, member_id: member.id };
  const choices = roles.some((choice) => choice.value === member.role) ? roles : [{ value: member.role, label: member.role_name }, ...roles];

  async function update(body: { role?: string; status?: Exclude<MemberStatus, 'revoked'> }, message: string) {
    // Suspending may need an approval (the organization's `members.remove`), as removing does.
    const result = await run(() => api.updateOrganizationMember({ params, body }));
    setConfirming(null);
    if (result?.ok) await onChanged(message);
  }

  async function remove() {
    const result = await run(() => api.revokeOrganizationMember({ params }));
    setConfirming(null);
    if (result?.ok) await onChanged(`${name} was removed from the organization.`);
  }

  const editable = manage && member.status !== 'revoked';
  return (
    <li className="card auth-item">
      <div className="auth-item-main">
        <p className="auth-item-title">
          <strong>{name}</strong> {member.user_id === userId && <span className="badge badge-ready">You</span>}{' '}
          <DirectoryBadge managed={member.managed_by_directory} />
        </p>
        <p className="hint">
          {member.display_name && (
            <>
              <span className="auth-email">{member.email}</span>
              <br />
            </>
          )}
          {member.role_name} · <span className={member.status === 'active' ? '' : 'console-warn'}>{STATUS_LABELS[member.status]}</span>
          <br />
          Member since <LocalTime iso={member.created_at} />
        </p>
      </div>
      {editable && confirming === null && (
        <div className="console-row-actions">
          <form
            className="console-inline-form"
            onSubmit={(event) => {
              event.preventDefault();
              void update({ role }, `${name} is now ${choices.find((choice) => choice.value === role)?.label ?? role}.`);
            }}
          >
            <SelectField label={`Role of ${name}`} name="role" choices={choices} value={role} onChange={setRole} />
            <button type="submit" className="auth-secondary" disabled={pending || role === member.role}>
              Change role
            </button>
          </form>
          <div className="auth-actions">
            {member.status === 'active' ? (
              <button type="button" ref={statusButton} className="auth-secondary" onClick={() => setConfirming('suspend')} disabled={pending}>
                Suspend
              </button>
            ) : (
              <button
                type="button"
                ref={statusButton}
                className="auth-secondary"
                onClick={() => update({ status: 'active' }, `${name} is active again.`)}
                disabled={pending}
              >
                Reactivate
              </button>
            )}
            <button type="button" ref={removeButton} className="auth-secondary auth-danger" onClick={() => setConfirming('remove')} disabled={pending}>
              Remove
            </button>
          </div>
        </div>
      )}
      {confirming === 'suspend' && (
        <RemoveConfirmation
          question={`Suspend ${name}?`}
          consequence="They lose access to the organization at once, and applications they authorized for it are signed out. You can reactivate them later."
          confirmLabel="Suspend member"
          pending={pending}
          onConfirm={() => update({ status: 'suspended' }, `${name} is suspended.`)}
          onCancel={backOut}
        />
      )}
      {confirming === 'remove' && (
        <RemoveConfirmation
          question={`Remove ${name} from the organization?`}
          consequence="They lose access to it at once. Their account itself stays."
          confirmLabel="Remove member"
          pending={pending}
          onConfirm={remove}
          onCancel={backOut}
        />
      )}
      {alert}
    </li>
  );
}
