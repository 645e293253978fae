'use client';

import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { StatusNote } from '../../_components/auth/error-alert';
import { LocalTime } from '../../_components/auth/local-time';
import { fieldValue } from '../../_components/auth/use-api-action';
import { useConsoleAction, useConsoleApi } from '../console-api';
import { useConsole } from '../console-context';
import { TextField } from '../console-ui';
import { useRoleChoices } from '../role-choices';
import { DangerZone } from './danger-zone';

const SLUG_PATTERN = '[a-z0-9](?:[a-z0-9\\-]{0,61}[a-z0-9])?';

/** The organization's name and slug (settings.manage); everyone else sees them read-only. */
export function SettingsSection() {
  const { organization, can, reloadOrganization } = useConsole();
  const router = useRouter();
  const { api, panel } = useConsoleApi();
  const [note, setNote] = useState<string | null>(null);
  const { pending, fieldErrors, run, alert } = useConsoleAction(['name', 'slug']);
  const manage = can('settings.manage');
  // The membership carries the role's id (a custom role's is a uuid); people read its name.
  const { roles } = useRoleChoices();
  const roleId = organization.membership.role;
  const roleName = roles === null ? '…' : (roles.find((role) => role.id === roleId)?.name ?? roleId);

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setNote(null);
    const form = event.currentTarget;
    const name = fieldValue(form, 'name');
    const slug = fieldValue(form, 'slug');
    const body = { ...(name !== organization.name ? { name } : {}), ...(slug !== organization.slug ? { slug } : {}) };
    if (Object.keys(body).length === 0) {
      setNote('Nothing changed.');
      return;
    }
    const result = await run(() => api.updateOrganization({ params: { id: organization.id }, body }));
    if (!result?.ok) return;
    setNote('Settings saved.');
    await reloadOrganization();
    // The switcher (rendered on the server) shows the name too.
    router.refresh();
  }

  return (
    <section aria-labelledby="settings-heading">
      <h2 id="settings-heading">Settings</h2>
      <dl className="card auth-profile">
        <div>
          <dt>Organization id</dt>
          <dd>
            <code>{organization.id}</code>
          </dd>
        </div>
        <div>
          <dt>Your role</dt>
          <dd>{roleName}</dd>
        </div>
        <div>
          <dt>Created</dt>
          <dd>
            <LocalTime iso={organization.created_at} />
          </dd>
        </div>
      </dl>
      {manage ? (
        <form className="stack card" onSubmit={save} aria-label="Organization settings">
          <TextField label="Name" name="name" required maxLength={100} autoComplete="organization" defaultValue={organization.name} error={fieldErrors.name} />
          <TextField
            label="Slug"
            name="slug"
            required
            maxLength={63}
            pattern={SLUG_PATTERN}
            spellCheck={false}
            defaultValue={organization.slug}
            error={fieldErrors.slug}
            hint="Lowercase letters, digits and inner hyphens. Links or integrations that use the old slug stop working."
          />
          {alert}
          <div>
            <button type="submit" disabled={pending}>
              Save settings
            </button>
          </div>
        </form>
      ) : (
        <p>
          Name: <strong>{organization.name}</strong> · slug: <code>{organization.slug}</code>. Your role does not let you change them.
        </p>
      )}
      <StatusNote message={note} />
      {panel}
      <DangerZone />
    </section>
  );
}
