'use client';

import type { FormEvent } from 'react';
import { fieldValue } from '../../_components/auth/use-api-action';
import type { Api } from '../../_components/api/use-api';
import { useConsoleAction } from '../console-api';
import { useConsole } from '../console-context';
import { TextField } from '../console-ui';
import type { Role } from '../contract-types';

type ApiPermission = Role['api_permissions'][number];

/** One per line: the API's identifier, then one of its permissions (`https://api.example.com/v1 invoices:read`). */
function parseLines(text: string): ApiPermission[] {
  return text
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter((words) => words[0])
    .map(([resource = '', permission = '']) => ({ resource, permission }));
}

const formatLines = (permissions: readonly ApiPermission[]) => permissions.map((p) => `${p.resource} ${p.permission}`).join('\n');

/**
 * The permissions of developers' APIs a custom role carries into organization-bound tokens for those
 * APIs: a member's token for an API holds exactly what their role lists for it.
 */
export function RoleApiPermissions({ role, manage, api, onChanged }: { role: Role; manage: boolean; api: Api; onChanged: (message: string) => Promise<void> }) {
  const { pending, fieldErrors, run, alert } = useConsoleAction(['api_permissions']);
  const params = { id: useConsole().organization.id, role_id: role.id };

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const body = { api_permissions: parseLines(fieldValue(event.currentTarget, 'api_permissions')) };
    const result = await run(() => api.updateOrganizationRole({ params, body }));
    if (result?.ok) await onChanged(`API access of “${role.name}” saved.`);
  }

  if (!manage) {
    if (role.api_permissions.length === 0) return null;
    return <p className="hint">API permissions: {role.api_permissions.map((p) => `${p.permission} (${p.resource})`).join(', ')}</p>;
  }
  return (
    <form className="stack" onSubmit={save} aria-label={`API access of ${role.name}`}>
      <TextField
        label={`API access of ${role.name}`}
        name="api_permissions"
        multiline
        rows={3}
        spellCheck={false}
        defaultValue={formatLines(role.api_permissions)}
        error={fieldErrors.api_permissions}
        hint="One per line: an API’s identifier, then one of its permissions. Members with this role get them in tokens for that API bound to this organization."
      />
      {alert}
      <div>
        <button type="submit" disabled={pending}>
          Save API access<span className="console-visually-hidden"> of {role.name}</span>
        </button>
      </div>
    </form>
  );
}
