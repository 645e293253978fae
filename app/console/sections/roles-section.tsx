'use client';

import { useId, useState, type FormEvent } from 'react';
import { StatusNote } from '../../_components/auth/error-alert';
import { DottedName } from '../../_components/dotted-name';
import { fieldValue } from '../../_components/auth/use-api-action';
import { RemoveConfirmation } from '@/app/_components/confirmation';
import { PERMISSION_DESCRIPTIONS, PERMISSIONS, type Permission } from '@/lib/contract/permissions';
import { useConsoleAction, useConsoleApi, useRoles } from '../console-api';
import type { Api } from '../../_components/api/use-api';
import { useConsole } from '../console-context';
import { checkedValues, CollectionState, PermissionChoices, TextField, useSectionStatus } from '../console-ui';
import { PERMISSION_GROUPS } from '../permission-groups';
import { RoleApiPermissions } from './role-api-permissions';
import type { Role } from '../contract-types';

/**
 * Roles: the built-in ones as a read-only table (a row per permission, a column per role, so it fits
 * a phone), and each custom role as a card whose permissions are grouped checkbox lists. With
 * roles.manage, custom roles are created, their permissions saved, renamed and deleted (not while a
 * member or invitation holds them).
 */
/** The permissions ticked in `form`, in catalogue order (the boxes offer exactly the catalogue). */
function checkedPermissions(form: HTMLFormElement) {
  const chosen = new Set(checkedValues(form, 'permissions'));
  return PERMISSIONS.filter((permission) => chosen.has(permission));
}

export function RolesSection() {
  const { organization, can } = useConsole();
  const roles = useRoles();
  const { heading, note, setNote, changed } = useSectionStatus(roles.reload);
  const { api, panel } = useConsoleApi();
  const create = useConsoleAction(['name', 'description', 'permissions']);
  const manage = can('roles.manage');
  const builtIn = roles.items?.filter((role) => role.builtin) ?? [];
  const custom = roles.items?.filter((role) => !role.builtin) ?? [];

  async function add(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setNote(null);
    const form = event.currentTarget;
    const description = fieldValue(form, 'description');
    const body = { name: fieldValue(form, 'name'), ...(description ? { description } : {}), permissions: checkedPermissions(form) };
    const result = await create.run(() => api.createOrganizationRole({ params: { id: organization.id }, body }));
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
        A member holds one role, which decides what they may do here. Owner, admin and member are built in and cannot be changed.{' '}
        {manage ? 'Custom roles hold the permissions you choose.' : 'Your role lets you see roles but not change them.'}
      </p>
      <CollectionState {...roles} empty={<p>No roles could be shown.</p>}>
        {builtIn.length > 0 && <BuiltInRoles roles={builtIn} />}
        <h3 className="console-subheading">Custom roles</h3>
        {custom.length === 0 ? (
          <p className="hint">No custom roles yet.{manage ? ' Create one below.' : ''}</p>
        ) : (
          <ul className="auth-list">
            {custom.map((role) => (
              <CustomRole
                key={`${role.id}:${role.name}:${role.description}:${role.permissions.join(',')}:${JSON.stringify(role.api_permissions)}`}
                role={role}
                manage={manage}
                api={api}
                onChanged={changed}
              />
            ))}
          </ul>
        )}
      </CollectionState>
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

/** The built-in roles side by side: a row per permission (grouped), a column per role. Read-only. */
function BuiltInRoles({ roles }: { roles: Role[] }) {
  const captionId = useId();
  return (
    <>
      <h3 className="console-subheading">Built-in roles</h3>
      <div className="console-table-box">
        <table className="console-roles-table">
          <caption id={captionId} className="console-visually-hidden">
            Permissions of the built-in roles
          </caption>
          <thead>
            <tr>
              <th scope="col">Permission</th>
              {roles.map((role) => (
                <th scope="col" key={role.id} className="console-cell-mark">
                  {role.name}
                </th>
              ))}
            </tr>
          </thead>
          {PERMISSION_GROUPS.map((group) => (
            <tbody key={group.label}>
              <tr>
                <th scope="rowgroup" colSpan={roles.length + 1} className="console-group-row">
                  {group.label}
                </th>
              </tr>
              {group.permissions.map((permission) => (
                <tr key={permission}>
                  <th scope="row">
                    <DottedName name={permission} />
                    <span className="hint console-block">{PERMISSION_DESCRIPTIONS[permission]}</span>
                  </th>
                  {roles.map((role) => (
                    <td key={role.id} className="console-cell-mark">
                      {role.permissions.includes(permission) ? (
                        <>
                          <span aria-hidden="true">✓</span>
                          <span className="console-visually-hidden">Yes</span>
                        </>
                      ) : (
                        <>
                          <span aria-hidden="true" className="hint">
                            –
                          </span>
                          <span className="console-visually-hidden">No</span>
                        </>
                      )}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          ))}
        </table>
      </div>
      <p className="hint">Owners can also make and unmake owners and grant delegated admin permissions; admins cannot.</p>
    </>
  );
}

/** One custom role: its permissions as grouped checkboxes saved together, and its name, description and deletion. */
function CustomRole({ role, manage, api, onChanged }: { role: Role; manage: boolean; api: Api; onChanged: (message: string) => Promise<void> }) {
  const titleId = useId();
  const [dirty, setDirty] = useState(false);
  const [mode, setMode] = useState<'view' | 'edit' | 'delete'>('view');
  const { pending, fieldErrors, run, alert } = useConsoleAction(['permissions']);
  const params = { id: useConsole().organization.id, role_id: role.id };

  function changedBoxes(event: FormEvent<HTMLFormElement>) {
    const checked = new Set(checkedValues(event.currentTarget, 'permissions'));
    setDirty(checked.size !== role.permissions.length || role.permissions.some((permission) => !checked.has(permission)));
  }

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const permissions = checkedPermissions(event.currentTarget);
    const result = await run(() => api.updateOrganizationRole({ params, body: { permissions } }));
    if (result?.ok) await onChanged(`Permissions of “${role.name}” saved.`);
  }

  async function remove() {
    const result = await run(() => api.deleteOrganizationRole({ params }));
    setMode('view');
    if (result?.ok) await onChanged(`Role “${role.name}” deleted.`);
  }

  return (
    <li className="card console-role" aria-labelledby={titleId}>
      {mode === 'edit' ? (
        <EditRole role={role} api={api} onDone={async (message) => (message ? onChanged(message) : setMode('view'))} />
      ) : (
        <div className="console-role-head">
          <div className="auth-item-main">
            <h4 id={titleId} className="console-role-name">
              {role.name}
            </h4>
            {role.description && <p className="hint">{role.description}</p>}
          </div>
          {manage && mode === 'view' && (
            <div className="auth-actions">
              <button type="button" className="auth-secondary" onClick={() => setMode('edit')} disabled={pending}>
                Edit details<span className="console-visually-hidden"> of {role.name}</span>
              </button>
              <button type="button" className="auth-secondary auth-danger" onClick={() => setMode('delete')} disabled={pending}>
                Delete<span className="console-visually-hidden"> {role.name}</span>
              </button>
            </div>
          )}
        </div>
      )}
      {mode === 'delete' && (
        <RemoveConfirmation
          question={`Delete the role “${role.name}”?`}
          consequence="Only a role nobody holds (no member, no pending invitation) can be deleted."
          confirmLabel="Delete role"
          pending={pending}
          onConfirm={remove}
          onCancel={() => setMode('view')}
        />
      )}
      {manage ? (
        <form className="stack" onSubmit={save} onChange={changedBoxes} aria-label={`Permissions of ${role.name}`}>
          <PermissionChoices
            legend={`Permissions of ${role.name}`}
            name="permissions"
            permissions={PERMISSIONS}
            defaultChecked={role.permissions}
            error={fieldErrors.permissions}
          />
          {alert}
          <div>
            <button type="submit" disabled={pending || !dirty}>
              Save permissions<span className="console-visually-hidden"> of {role.name}</span>
            </button>
          </div>
        </form>
      ) : (
        <HeldPermissions permissions={role.permissions} />
      )}
      <RoleApiPermissions role={role} manage={manage} api={api} onChanged={onChanged} />
    </li>
  );
}

/** What a role holds, by group, for those who may not change it. */
function HeldPermissions({ permissions }: { permissions: readonly Permission[] }) {
  return (
    <dl className="console-held">
      {PERMISSION_GROUPS.map((group) => {
        const held = group.permissions.filter((permission) => permissions.includes(permission));
        if (held.length === 0) return null;
        return (
          <div key={group.label}>
            <dt>{group.label}</dt>
            <dd>
              <ul className="console-plain-list">
                {held.map((permission) => (
                  <li key={permission}>
                    <DottedName name={permission} /> <span className="hint">{PERMISSION_DESCRIPTIONS[permission]}</span>
                  </li>
                ))}
              </ul>
            </dd>
          </div>
        );
      })}
    </dl>
  );
}

function EditRole({ role, api, onDone }: { role: Role; api: Api; onDone: (message: string | null) => Promise<void> }) {
  const { organization } = useConsole();
  const { pending, fieldErrors, run, alert } = useConsoleAction(['name', 'description']);

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const body = { name: fieldValue(form, 'name'), description: fieldValue(form, 'description') };
    const result = await run(() => api.updateOrganizationRole({ params: { id: organization.id, role_id: role.id }, body }));
    if (result?.ok) await onDone(`Role “${result.body.name}” saved.`);
  }

  return (
    <form className="stack" onSubmit={save} aria-label={`Edit the role ${role.name}`}>
      <h4 className="console-role-name">Edit “{role.name}”</h4>
      <TextField label="Role name" name="name" required maxLength={100} defaultValue={role.name} error={fieldErrors.name} />
      <TextField label="Description" name="description" maxLength={500} defaultValue={role.description ?? ''} error={fieldErrors.description} />
      {alert}
      <div className="auth-actions">
        <button type="submit" disabled={pending}>
          Save details
        </button>
        <button type="button" className="auth-secondary" onClick={() => onDone(null)} disabled={pending}>
          Cancel
        </button>
      </div>
    </form>
  );
}
