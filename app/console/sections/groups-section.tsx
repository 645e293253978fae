'use client';

import { DirectoryBadge } from '../directory-badge';
import { useId, useState, type FormEvent } from 'react';
import { StatusNote } from '../../_components/auth/error-alert';
import { fieldValue } from '../../_components/auth/use-api-action';
import { RemoveConfirmation } from '@/app/_components/confirmation';
import { CONTRACTS } from '@/lib/http/contracts';
import { useCollection, useConsoleAction, useConsoleApi } from '../console-api';
import type { Api } from '../../_components/api/use-api';
import { useConsole } from '../console-context';
import { CollectionState, TextField, useSectionStatus } from '../console-ui';
import type { Group } from '../contract-types';
import { GroupMembers } from './group-members';

/** Groups of members: create, rename, delete (only when empty), and each group's members. */
export function GroupsSection() {
  const { organization, can } = useConsole();
  const groups = useCollection(CONTRACTS.listOrganizationGroups, { params: { id: organization.id } });
  const { heading, note, setNote, changed } = useSectionStatus(groups.reload);
  const { api, panel } = useConsoleApi();
  const create = useConsoleAction(['name']);
  const manage = can('groups.manage');

  async function add(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setNote(null);
    const form = event.currentTarget;
    const result = await create.run(() => api.createOrganizationGroup({ params: { id: organization.id }, body: { name: fieldValue(form, 'name') } }));
    if (!result?.ok) return;
    form.reset();
    await changed(`Group “${result.body.name}” created.`);
  }

  return (
    <section aria-labelledby="groups-heading">
      <h2 id="groups-heading" ref={heading} tabIndex={-1}>
        Groups
      </h2>
      <p className="hint">Groups gather members, for example by team. {manage ? '' : 'Your role lets you see groups but not change them.'}</p>
      {manage && (
        <form className="stack card" onSubmit={add} aria-label="Create a group">
          <h3 className="console-form-title">Create a group</h3>
          <TextField label="Group name" name="name" required maxLength={100} error={create.fieldErrors.name} />
          {create.alert}
          <div>
            <button type="submit" disabled={create.pending}>
              Create group
            </button>
          </div>
        </form>
      )}
      <CollectionState {...groups} empty={<p>No groups yet. {manage ? 'Create the first one above.' : ''}</p>}>
        <ul className="auth-list">
          {groups.items?.map((group) => (
            <GroupRow key={group.id} group={group} manage={manage} api={api} onChanged={changed} />
          ))}
        </ul>
      </CollectionState>
      <StatusNote message={note} />
      {panel}
    </section>
  );
}

type Mode = 'view' | 'renaming' | 'confirming';

function GroupRow({ group, manage, api, onChanged }: { group: Group; manage: boolean; api: Api; onChanged: (message: string) => Promise<void> }) {
  const membersId = useId();
  const [mode, setMode] = useState<Mode>('view');
  const [open, setOpen] = useState(false);
  const { pending, fieldErrors, run, alert, clearErrors } = useConsoleAction(['name']);
  const params = { id: useConsole().organization.id, group_id: group.id };

  async function rename(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const name = fieldValue(event.currentTarget, 'name');
    const result = await run(() => api.renameOrganizationGroup({ params, body: { name } }));
    if (!result?.ok) return;
    setMode('view');
    await onChanged(`Group renamed to “${result.body.name}”.`);
  }

  async function remove() {
    const result = await run(() => api.deleteOrganizationGroup({ params }));
    setMode('view');
    if (result?.ok) await onChanged(`Group “${group.name}” deleted.`);
  }

  return (
    <li className="card auth-item">
      <div className="auth-item-main">
        <p className="auth-item-title">
          <strong>{group.name}</strong> <DirectoryBadge managed={group.managed_by_directory} />
        </p>
        <p className="hint">{group.member_count === 1 ? '1 member' : `${group.member_count} members`}</p>
      </div>
      {mode === 'renaming' ? (
        <form className="stack console-full" onSubmit={rename}>
          <TextField label={`New name for “${group.name}”`} name="name" required maxLength={100} defaultValue={group.name} error={fieldErrors.name} />
          <div className="auth-actions">
            <button type="submit" disabled={pending}>
              Save
            </button>
            <button
              type="button"
              className="auth-secondary"
              onClick={() => {
                clearErrors();
                setMode('view');
              }}
              disabled={pending}
            >
              Cancel
            </button>
          </div>
        </form>
      ) : mode === 'confirming' ? (
        <RemoveConfirmation
          question={`Delete the group “${group.name}”?`}
          consequence={group.member_count > 0 ? 'A group must be empty to be deleted: remove its members first.' : 'This cannot be undone.'}
          confirmLabel="Delete group"
          pending={pending}
          onConfirm={remove}
          onCancel={() => setMode('view')}
        />
      ) : (
        <div className="auth-actions">
          <button type="button" className="auth-secondary" aria-expanded={open} aria-controls={membersId} onClick={() => setOpen((value) => !value)}>
            {open ? 'Hide members' : 'Show members'}
          </button>
          {manage && (
            <>
              <button type="button" className="auth-secondary" onClick={() => setMode('renaming')} disabled={pending}>
                Rename
              </button>
              <button type="button" className="auth-secondary auth-danger" onClick={() => setMode('confirming')} disabled={pending}>
                Delete
              </button>
            </>
          )}
        </div>
      )}
      {alert}
      <div id={membersId} className="console-full" hidden={!open}>
        {open && <GroupMembers group={group} manage={manage} api={api} onChanged={onChanged} />}
      </div>
    </li>
  );
}
