'use client';

import { useState, type FormEvent } from 'react';
import { useApi } from '../_components/api/use-api';
import { ErrorAlert, StatusNote } from '../_components/auth/error-alert';
import { fieldValue, useApiAction } from '../_components/auth/use-api-action';
import { CollectionState, useContractCollection, useSectionStatus } from '../_components/collection-state';
import { SelectField, TextField, checkedValues } from '../_components/form-fields';
import type { CallOutput } from '@/lib/contract/client';
import { CONTRACTS, type Contracts } from '@/lib/http/contracts';
import { ApplicationCard, type Application } from './application-card';
import { RedirectsAndScopes, redirectUris } from './application-fields';
import type { ScopeChoice } from './application-scopes';
import { OneTimeSecret } from '@/app/_components/one-time-secret';

const CLIENT_TYPES = [
  { value: 'confidential', label: 'Confidential: runs on a server and keeps a client secret' },
  { value: 'public', label: 'Public: a browser or mobile app, signs in with PKCE and no secret' },
];

/** The new application, with its client secret when it is a confidential one (this answer only). */
type Created = CallOutput<Contracts['createApplication']>;

/** The caller's applications: register one, and each one's settings, secret, certification and disabling. */
export function ApplicationsSection({ scopes }: { scopes: ScopeChoice[] }) {
  const { api, call, panel } = useApi();
  const applications = useContractCollection(CONTRACTS.listApplications, {}, call);
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
      // The select offers exactly the contract's client types.
      client_type: fieldValue(form, 'client_type') as Application['client_type'],
      redirect_uris: redirectUris(form),
      scopes: checkedValues(form, 'scopes'),
    };
    const result = await create.run(() => api.createApplication({ body }));
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
              api={api}
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
