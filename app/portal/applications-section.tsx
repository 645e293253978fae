'use client';

import { useState, type FormEvent } from 'react';
import { ErrorAlert, StatusNote } from '../_components/auth/error-alert';
import { fieldValue, useApiAction } from '../_components/auth/use-api-action';
import { CollectionState, usePagedCollection, useSectionStatus } from '../_components/collection-state';
import { SelectField, TextField, checkedValues } from '../_components/form-fields';
import { ApplicationCard } from './application-card';
import { RedirectsAndScopes, redirectUris } from './application-fields';
import { OneTimeSecret } from './one-time-secret';
import { usePortalApi } from './portal-api';
import type { Application, ScopeChoice } from './types';

const CLIENT_TYPES = [
  { value: 'confidential', label: 'Confidential: runs on a server and keeps a client secret' },
  { value: 'public', label: 'Public: a browser or mobile app, signs in with PKCE and no secret' },
];

type Created = Application & { client_secret?: string };

/** The caller's applications: register one, and each one's settings, secret, certification and disabling. */
export function ApplicationsSection({ scopes }: { scopes: ScopeChoice[] }) {
  const { send, read, panel } = usePortalApi();
  const applications = usePagedCollection<Application>('/api/developer/applications', 'applications', read);
  const { heading, note, setNote, changed } = useSectionStatus(applications.reload);
  const create = useApiAction({ fields: ['name', 'client_type', 'redirect_uris', 'scopes'] });
  const [created, setCreated] = useState<Created | null>(null);
  const empty = applications.items?.length === 0;

  async function register(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setNote(null);
    const form = event.currentTarget;
    const body = {
      name: fieldValue(form, 'name'),
      client_type: fieldValue(form, 'client_type'),
      redirect_uris: redirectUris(form),
      scopes: checkedValues(form, 'scopes'),
    };
    const result = await create.run(() => send<Created>('/api/developer/applications', { body, idempotent: true }));
    if (!result?.ok) return;
    form.reset();
    setCreated(result.body);
    await applications.reload();
    setNote(`Application “${result.body.name}” registered.`);
  }

  return (
    <section aria-labelledby="applications-heading">
      <h2 id="applications-heading" ref={heading} tabIndex={-1}>
        Applications
      </h2>
      <p className="hint">Applications that sign people in with this service (OpenID Connect clients you own).</p>
      {created && (
        <OneTimeSecret
          key={created.id}
          title={`“${created.name}” is registered.`}
          label={created.client_secret ? 'Client secret' : 'Client ID'}
          value={created.client_secret ?? created.client_id}
          details={
            <p>
              Client ID: <code className="portal-id">{created.client_id}</code>
              {created.client_secret ? '' : ' (a public client has no secret: it proves itself with PKCE).'}
            </p>
          }
          onDone={() => setCreated(null)}
        />
      )}
      <details className="console-create portal-create" open={empty || undefined}>
        <summary>Register an application</summary>
        <form className="card stack" onSubmit={register} aria-label="Register an application">
          <TextField
            label="Application name"
            name="name"
            required
            maxLength={100}
            error={create.fieldErrors.name}
            hint="People see it on the consent screen."
          />
          <SelectField label="Client type" name="client_type" choices={CLIENT_TYPES} defaultValue="confidential" error={create.fieldErrors.client_type} />
          <RedirectsAndScopes scopes={scopes} errors={create.fieldErrors} />
          <ErrorAlert message={create.error} />
          <div>
            <button type="submit" disabled={create.pending}>
              Register application
            </button>
          </div>
        </form>
      </details>
      <CollectionState {...applications} empty={<p>No applications yet: register one to get a client ID.</p>}>
        <ul className="auth-list">
          {applications.items?.map((application) => (
            <ApplicationCard
              key={`${application.id}:${application.updated_at}:${application.status}`}
              application={application}
              scopes={scopes}
              send={send}
              read={read}
              onChanged={changed}
            />
          ))}
        </ul>
      </CollectionState>
      <StatusNote message={note} />
      {panel}
    </section>
  );
}
