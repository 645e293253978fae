'use client';

import { useState, type FormEvent } from 'react';
import { StatusNote } from '../../_components/auth/error-alert';
import { fieldValue } from '../../_components/auth/use-api-action';
import { RemoveConfirmation } from '@/app/_components/confirmation';
import { PERMISSION_DESCRIPTIONS, PERMISSIONS, type Permission } from '@/lib/contract/permissions';
import { useCollection, useConsoleAction, useConsoleApi, type Send } from '../console-api';
import { useConsole } from '../console-context';
import { checkedValues, CollectionState, PermissionChoices, TextField, useSectionStatus } from '../console-ui';
import type { Role } from '../types';

/**
 * Roles as a permission matrix: a row per role, a column per permission. Built-in roles are fixed;
 * with roles.manage, custom roles' boxes can be changed (saved per row), and custom roles created,
 * renamed and deleted (not while a member or invitation uses them).
 */
export function RolesSection() {
  const { can } = useConsole();
  const roles = useCollection<Role>('/roles', 'roles');
  const { heading, note, setNote, changed } = useSectionStatus(roles.reload);
  const { send, panel } = useConsoleApi();
  const [editing, setEditing] = useState<Role | null>(null);
  const create = useConsoleAction(['name', 'description', 'permissions']);
  const manage = can('roles.manage');

  async function edited(message: string | null) {
    setEditing(null);
    if (message) await changed(message);
  }

  async function add(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setNote(null);
    const form = event.currentTarget;
    const description = fieldValue(form, 'description');
    const body = { name: fieldValue(form, 'name'), ...(description ? { description } : {}), permissions: checkedValues(form, 'permissions') };
    const result = await create.run(() => send<Role>('/roles', { body }));
    if (!result?.ok) return;
    form.reset();
    await changed(`Role “${result.body.name}” created.`);
  }

  return (
    <section aria-labelledby="roles-heading">
      <h2 id="roles-heading" ref={heading} tabIndex={-1}>
        Roles
      </h2>
      <p className="hint">
        Owner, admin and member are built in. {manage ? 'Custom roles hold the permissions you tick; save each row after changing it.' : ''}
      </p>
      <CollectionState {...roles} empty={<p>No roles could be shown.</p>}>
        <div className="console-scroll" role="region" aria-labelledby="roles-matrix-caption" tabIndex={0}>
          <table className="console-matrix">
            <caption id="roles-matrix-caption">Permissions of each role</caption>
            <thead>
              <tr>
                <th scope="col">Role</th>
                {PERMISSIONS.map((permission) => (
                  <th scope="col" key={permission} title={PERMISSION_DESCRIPTIONS[permission]}>
                    <code>{permission}</code>
                  </th>
                ))}
                {manage && <th scope="col">Actions</th>}
              </tr>
            </thead>
            <tbody>
              {roles.items?.map((role) => (
                <RoleRow
                  key={`${role.id}:${role.permissions.join(',')}`}
                  role={role}
                  manage={manage}
                  send={send}
                  onChanged={changed}
                  onEdit={() => setEditing(role)}
                />
              ))}
            </tbody>
          </table>
        </div>
      </CollectionState>
      {editing && <EditRole key={editing.id} role={editing} send={send} onDone={edited} />}
      {manage && (
        <form className="stack card" onSubmit={add} aria-label="Create a custom role">
          <h3 className="console-form-title">Create a custom role</h3>
          <TextField label="Role name" name="name" required maxLength={100} error={create.fieldErrors.name} />
          <TextField label="Description (optional)" name="description" maxLength={500} error={create.fieldErrors.description} />
          <PermissionChoices
            legend="Permissions"
            name="permissions"
            permissions={PERMISSIONS}
            defaultChecked={['read']}
            error={create.fieldErrors.permissions}
          />
          {create.alert}
          <div>
            <button type="submit" disabled={create.pending}>
              Create role
            </button>
          </div>
        </form>
      )}
      <StatusNote message={note} />
      {panel}
    </section>
  );
}

function RoleRow({
  role,
  manage,
  send,
  onChanged,
  onEdit,
}: {
  role: Role;
  manage: boolean;
  send: Send;
  onChanged: (message: string) => Promise<void>;
  onEdit: () => void;
}) {
  const [draft, setDraft] = useState<Set<Permission>>(() => new Set(role.permissions));
  const [confirming, setConfirming] = useState(false);
  const { pending, error, run, alert } = useConsoleAction(['permissions']);
  const editable = manage && !role.builtin;
  const dirty = draft.size !== role.permissions.length || role.permissions.some((permission) => !draft.has(permission));
  const path = `/roles/${encodeURIComponent(role.id)}`;

  function toggle(permission: Permission, on: boolean) {
    setDraft((current) => {
      const next = new Set(current);
      if (on) next.add(permission);
      else next.delete(permission);
      return next;
    });
  }

  async function save() {
    const permissions = PERMISSIONS.filter((permission) => draft.has(permission));
    const result = await run(() => send<Role>(path, { method: 'PATCH', body: { permissions } }));
    if (result?.ok) await onChanged(`Permissions of “${role.name}” saved.`);
  }

  async function remove() {
    const result = await run(() => send(path, { method: 'DELETE' }));
    setConfirming(false);
    if (result?.ok) await onChanged(`Role “${role.name}” deleted.`);
  }

  return (
    <>
      <tr>
        <th scope="row">
          {role.name} {role.builtin && <span className="badge">Built in</span>}
          {role.description && <span className="hint console-block">{role.description}</span>}
        </th>
        {PERMISSIONS.map((permission) => (
          <td key={permission} className="console-cell-check">
            <input
              type="checkbox"
              aria-label={`${role.name}: ${permission}`}
              checked={draft.has(permission)}
              disabled={!editable || pending}
              onChange={(event) => toggle(permission, event.target.checked)}
            />
          </td>
        ))}
        {manage && (
          <td>
            {editable && (
              <div className="auth-actions console-nowrap">
                <button type="button" onClick={save} disabled={pending || !dirty}>
                  Save<span className="console-visually-hidden"> {role.name}</span>
                </button>
                <button type="button" className="auth-secondary" onClick={onEdit} disabled={pending}>
                  Edit<span className="console-visually-hidden"> {role.name}</span>
                </button>
                <button type="button" className="auth-secondary auth-danger" onClick={() => setConfirming(true)} disabled={pending}>
                  Delete<span className="console-visually-hidden"> {role.name}</span>
                </button>
              </div>
            )}
          </td>
        )}
      </tr>
      {(confirming || error) && (
        <tr>
          <td colSpan={PERMISSIONS.length + 2} className="console-row-extra">
            {confirming && (
              <RemoveConfirmation
                question={`Delete the role “${role.name}”?`}
                consequence="Only a role nobody holds (no member, no pending invitation) can be deleted."
                confirmLabel="Delete role"
                pending={pending}
                onConfirm={remove}
                onCancel={() => setConfirming(false)}
              />
            )}
            {alert}
          </td>
        </tr>
      )}
    </>
  );
}

function EditRole({ role, send, onDone }: { role: Role; send: Send; onDone: (message: string | null) => Promise<void> }) {
  const { pending, fieldErrors, run, alert } = useConsoleAction(['name', 'description']);

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const body = { name: fieldValue(form, 'name'), description: fieldValue(form, 'description') };
    const result = await run(() => send<Role>(`/roles/${encodeURIComponent(role.id)}`, { method: 'PATCH', body }));
    if (result?.ok) await onDone(`Role “${result.body.name}” saved.`);
  }

  return (
    <form className="stack card" onSubmit={save} aria-label={`Edit the role ${role.name}`}>
      <h3 className="console-form-title">Edit “{role.name}”</h3>
      <TextField label="Role name" name="name" required maxLength={100} defaultValue={role.name} error={fieldErrors.name} />
      <TextField label="Description" name="description" maxLength={500} defaultValue={role.description ?? ''} error={fieldErrors.description} />
      {alert}
      <div className="auth-actions">
        <button type="submit" disabled={pending}>
          Save role
        </button>
        <button type="button" className="auth-secondary" onClick={() => onDone(null)} disabled={pending}>
          Cancel
        </button>
      </div>
    </form>
  );
}
