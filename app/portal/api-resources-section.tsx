'use client';

import type { FormEvent } from 'react';
import { useApi } from '../_components/api/use-api';
import { ErrorAlert, StatusNote } from '../_components/auth/error-alert';
import { fieldValue, useApiAction } from '../_components/auth/use-api-action';
import { CollectionState, useContractCollection, useSectionStatus } from '../_components/collection-state';
import { TextField } from '../_components/form-fields';
import { CONTRACTS } from '@/lib/http/contracts';
import { ApiResourceCard } from './api-resource-card';
import { apiSettingsOf, ApiSettingsFields } from './api-resource-fields';

const FIELDS = ['identifier', 'name', 'permissions', 'access_token_ttl_seconds', 'machine_clients'] as const;

/**
 * The caller's APIs: register one (identifier, permissions, token lifetime, machine use), and for each
 * one its settings, the confidential applications that may get machine tokens, disabling and deletion.
 */
export function ApiResourcesSection() {
  const { api, call, panel } = useApi();
  const apis = useContractCollection(CONTRACTS.listApiResources, {}, call);
  // The owner's applications: machine access is granted to their confidential ones.
  const applications = useContractCollection(CONTRACTS.listApplications, {}, call);
  const { heading, note, setNote, changed } = useSectionStatus(apis.reload);
  const create = useApiAction({ fields: FIELDS });
  const empty = apis.items?.length === 0;
  const machineClients = (applications.items ?? []).filter((a) => a.client_type === 'confidential' && a.status === 'enabled');

  async function register(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setNote(null);
    const form = event.currentTarget;
    const body = { identifier: fieldValue(form, 'identifier'), name: fieldValue(form, 'name'), ...apiSettingsOf(form) };
    const result = await create.run(() => api.createApiResource({ body }));
    if (!result?.ok) return;
    form.reset();
    await apis.reload();
    setNote(`API “${result.body.name}” registered.`);
  }

  return (
    <section aria-labelledby="api-resources-heading">
      <h2 id="api-resources-heading" ref={heading} tabIndex={-1}>
        APIs
      </h2>
      <p className="hint">
        Your own APIs: applications ask for a token with <code>resource=</code> your API’s identifier and get a signed JWT for it (RFC 9068), which your API
        checks against this service’s keys.
      </p>
      <details className="console-create portal-create" open={empty || undefined}>
        <summary>Register an API</summary>
        <form className="card stack" onSubmit={register} aria-label="Register an API">
          <TextField
            label="Identifier"
            name="identifier"
            type="url"
            required
            maxLength={256}
            error={create.fieldErrors.identifier}
            hint="An https URI that names your API, such as https://api.example.com/billing. It becomes the tokens’ audience and can never be used again, even after you delete the API."
          />
          <TextField label="API name" name="name" required maxLength={100} error={create.fieldErrors.name} hint="People see it on the consent screen." />
          <ApiSettingsFields errors={create.fieldErrors} />
          <ErrorAlert message={create.error} />
          <div>
            <button type="submit" disabled={create.pending}>
              Register API
            </button>
          </div>
        </form>
      </details>
      <CollectionState {...apis} empty={<p>No APIs yet: register one to issue tokens for it.</p>}>
        <ul className="auth-list">
          {apis.items?.map((resource) => (
            <ApiResourceCard
              key={`${resource.id}:${resource.updated_at}`}
              resource={resource}
              machineClients={machineClients}
              api={api}
              call={call}
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
