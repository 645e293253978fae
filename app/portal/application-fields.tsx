'use client';

import { CheckboxGroup, TextField } from '../_components/form-fields';
import type { FieldErrors } from '../_components/auth/use-api-action';
import type { ScopeChoice } from './application-scopes';

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

/** This service's own API scopes are namespaced; everything else is OpenID Connect sign-in. */
const isApiScope = (choice: ScopeChoice) => choice.scope.startsWith('identity.');

/**
 * The fields an application's creation and its edit share: redirect URIs (one per line) and scopes,
 * in two groups: what sign-in releases (openid, profile, email, offline_access: what an off-the-shelf
 * relying party asks for) and this service's API. Both groups are one `scopes` field to the API.
 */
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
      {[
        { legend: 'Sign-in scopes it may request (OpenID Connect)', choices: scopes.filter((choice) => !isApiScope(choice)), error: errors.scopes },
        { legend: 'API scopes it may request', choices: scopes.filter(isApiScope) },
      ].map((group) => (
        <CheckboxGroup
          key={group.legend}
          legend={group.legend}
          name="scopes"
          error={group.error}
          options={group.choices.map((choice) => ({ value: choice.scope, label: choice.scope, hint: choice.description }))}
          defaultChecked={initial?.scopes ?? ['openid']}
        />
      ))}
    </>
  );
}
