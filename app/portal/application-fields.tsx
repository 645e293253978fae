'use client';

import { CheckboxGroup, TextField } from '../_components/form-fields';
import type { FieldErrors } from '../_components/auth/use-api-action';
import type { ScopeChoice } from './types';

/** The redirect URIs textarea's lines, blank ones dropped (the API checks each one). */
export function redirectUris(form: HTMLFormElement): string[] {
  const value = new FormData(form).get('redirect_uris');
  return typeof value === 'string'
    ? value
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean)
    : [];
}

/** The fields an application's creation and its edit share: redirect URIs (one per line) and scopes. */
export function RedirectsAndScopes({
  scopes,
  errors,
  initial,
}: {
  scopes: ScopeChoice[];
  errors: FieldErrors;
  initial?: { redirect_uris: string[]; scopes: string[] };
}) {
  return (
    <>
      <TextField
        label="Redirect URIs"
        name="redirect_uris"
        multiline
        rows={3}
        spellCheck={false}
        required
        defaultValue={initial?.redirect_uris.join('\n')}
        error={errors.redirect_uris}
        hint="One per line, exactly as your application sends them: HTTPS, or http://127.0.0.1 and http://localhost while you develop."
      />
      <CheckboxGroup
        legend="Scopes it may request"
        name="scopes"
        error={errors.scopes}
        options={scopes.map((choice) => ({ value: choice.scope, label: choice.scope, hint: choice.description }))}
        defaultChecked={initial?.scopes ?? ['openid']}
      />
    </>
  );
}
