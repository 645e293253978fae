'use client';

import { Checks, TextField, checkedValues } from '../_components/form-fields';
import type { FieldErrors } from '../_components/auth/use-api-action';
import { fieldValue } from '../_components/auth/use-api-action';

/**
 * The settings an API is registered and edited with: its permissions, as the forms write them (one
 * per line, the name, then what it lets a client do: `invoices:read Read your invoices`), the access
 * token lifetime (in minutes here, seconds on the wire) and whether machine clients may use it.
 */
export interface PermissionLine {
  name: string;
  description: string;
}

export function parsePermissions(text: string): PermissionLine[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const [name = '', ...words] = line.split(/\s+/);
      return { name, description: words.join(' ') };
    });
}

export function formatPermissions(permissions: readonly PermissionLine[]): string {
  return permissions.map((p) => `${p.name} ${p.description}`).join('\n');
}

/** The three settings as the contract takes them, read from a form that renders ApiSettingsFields. */
export function apiSettingsOf(form: HTMLFormElement) {
  return {
    permissions: parsePermissions(fieldValue(form, 'permissions')),
    access_token_ttl_seconds: Math.round(Number(fieldValue(form, 'access_token_minutes') || '60') * 60),
    machine_clients: checkedValues(form, 'machine_clients').length > 0,
  };
}

export function ApiSettingsFields({
  errors,
  initial,
}: {
  errors: FieldErrors;
  initial?: { permissions: PermissionLine[]; access_token_ttl_seconds: number; machine_clients: boolean };
}) {
  const hint = 'One per line: the permission’s name (no spaces), then what it lets an application do, as people will read it on the consent screen.';
  return (
    <>
      <TextField
        label="Permissions"
        name="permissions"
        multiline
        rows={4}
        spellCheck={false}
        defaultValue={initial ? formatPermissions(initial.permissions) : undefined}
        error={errors.permissions}
        hint={initial ? `${hint} A permission you remove is taken from every application’s machine access too.` : hint}
      />
      <TextField
        label="Access token lifetime (minutes)"
        name="access_token_minutes"
        type="number"
        min={1}
        max={1440}
        defaultValue={String(initial ? Math.round(initial.access_token_ttl_seconds / 60) : 60)}
        error={errors.access_token_ttl_seconds}
      />
      <Checks
        legend="Machine clients"
        name="machine_clients"
        options={[
          {
            value: 'true',
            label: 'Applications may get tokens without a person (client credentials)',
            hint: 'You choose which ones, and with which permissions.',
          },
        ]}
        defaultChecked={initial?.machine_clients ? ['true'] : []}
        error={errors.machine_clients}
      />
    </>
  );
}
