'use client';

import { useState, type FormEvent } from 'react';
import type { Api, Call } from '../_components/api/use-api';
import { ErrorAlert } from '../_components/auth/error-alert';
import { LocalTime } from '../_components/auth/local-time';
import { fieldValue, useApiAction } from '../_components/auth/use-api-action';
import { CollectionState, useContractCollection } from '../_components/collection-state';
import { Checks, SelectField, TextField, checkedValues } from '../_components/form-fields';
import { RemoveConfirmation } from '@/app/_components/confirmation';
import type { ItemOf } from '@/lib/contract/client';
import { CONTRACTS, type Contracts } from '@/lib/http/contracts';
import { apiSettingsOf, ApiSettingsFields } from './api-resource-fields';
import { CopyableValue } from './quickstart';

export type ApiResource = ItemOf<Contracts['listApiResources']>;
type Application = ItemOf<Contracts['listApplications']>;

type Mode = 'view' | 'edit' | 'delete';

/** An application's name among the owner's, or its client id when it is not among them (any more). */
const applicationName = (applications: Application[], clientId: string) => applications.find((a) => a.client_id === clientId)?.name ?? clientId;

/** One API: its identifier and permissions, edits, enabling and disabling, deletion, and machine access. */
export function ApiResourceCard({
  resource,
  machineClients,
  api,
  call,
  onChanged,
}: {
  resource: ApiResource;
  machineClients: Application[];
  api: Api;
  call: Call;
  onChanged: (message: string) => Promise<void>;
}) {
  const [mode, setMode] = useState<Mode>('view');
  const action = useApiAction({ fields: ['name', 'permissions', 'access_token_ttl_seconds', 'resource_server_client_id'] });
  const nameOf = (clientId: string) => applicationName(machineClients, clientId);
  const params = { api_resource_id: resource.id };
  const enabled = resource.status === 'enabled';

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const body = { name: fieldValue(form, 'name'), ...apiSettingsOf(form), resource_server_client_id: fieldValue(form, 'resource_server_client_id') || null };
    const result = await action.run(() => api.updateApiResource({ params, body }));
    if (result?.ok) await onChanged(`“${result.body.name}” saved.`);
  }

  async function setStatus(status: 'enabled' | 'disabled') {
    const result = await action.run(() => api.updateApiResource({ params, body: { status } }));
    if (result?.ok) await onChanged(`“${resource.name}” is ${status}.`);
  }

  async function remove() {
    const result = await action.run(() => api.deleteApiResource({ params }));
    setMode('view');
    if (result?.ok) await onChanged(`“${resource.name}” is deleted.`);
  }

  return (
    <li className="card auth-item portal-item">
      <div className="auth-item-main">
        <h3 className="auth-item-title portal-item-title">
          {resource.name} <span className={`badge ${enabled ? 'badge-ready' : 'badge-not_ready'}`}>{enabled ? 'Enabled' : 'Disabled'}</span>
        </h3>
        <dl className="portal-facts">
          <div>
            <dt>Identifier (audience)</dt>
            <dd>
              <CopyableValue value={resource.identifier} label="identifier" />
            </dd>
          </div>
          <div>
            <dt>Permissions</dt>
            <dd>
              {resource.permissions.length === 0 ? (
                'None'
              ) : (
                <ul className="portal-values">
                  {resource.permissions.map((p) => (
                    <li key={p.name}>
                      <code>{p.name}</code>: {p.description}
                    </li>
                  ))}
                </ul>
              )}
            </dd>
          </div>
          <div>
            <dt>Access tokens</dt>
            <dd>
              JWT, valid {Math.round(resource.access_token_ttl_seconds / 60)} minutes · {resource.machine_clients ? 'machine clients allowed' : 'people only'}
            </dd>
          </div>
          <div>
            <dt>Resource server</dt>
            <dd>{resource.resource_server_client_id ? `${nameOf(resource.resource_server_client_id)} (may introspect its tokens)` : 'None named'}</dd>
          </div>
          <div>
            <dt>Registered</dt>
            <dd>
              <LocalTime iso={resource.created_at} />
            </dd>
          </div>
        </dl>
        {enabled && resource.machine_clients && <MachineAccess resource={resource} machineClients={machineClients} api={api} call={call} />}
      </div>
      {mode === 'view' && (
        <div className="auth-actions portal-actions">
          <button type="button" className="auth-secondary" onClick={() => setMode('edit')} disabled={action.pending} aria-label={`Edit ${resource.name}`}>
            Edit
          </button>
          <button
            type="button"
            className="auth-secondary"
            onClick={() => setStatus(enabled ? 'disabled' : 'enabled')}
            disabled={action.pending}
            aria-label={`${enabled ? 'Disable' : 'Enable'} ${resource.name}`}
          >
            {enabled ? 'Disable' : 'Enable'}
          </button>
          <button
            type="button"
            className="auth-secondary auth-danger"
            onClick={() => setMode('delete')}
            disabled={action.pending}
            aria-label={`Delete ${resource.name}`}
          >
            Delete
          </button>
        </div>
      )}
      {mode === 'edit' && (
        <form className="stack portal-edit" onSubmit={save} aria-label={`Edit ${resource.name}`}>
          <TextField label="API name" name="name" required maxLength={100} defaultValue={resource.name} error={action.fieldErrors.name} />
          <ApiSettingsFields errors={action.fieldErrors} initial={resource} />
          <SelectField
            label="Resource server"
            name="resource_server_client_id"
            choices={machineClients.map((a) => ({ value: a.client_id, label: a.name }))}
            placeholder="None"
            defaultValue={resource.resource_server_client_id ?? ''}
            error={action.fieldErrors.resource_server_client_id}
            hint="Your API’s own backend, if it asks this service whether a token is still active (token introspection). It authenticates with its client secret."
          />
          <div className="auth-actions">
            <button type="submit" disabled={action.pending}>
              Save changes
            </button>
            <button type="button" className="auth-secondary" onClick={() => setMode('view')} disabled={action.pending}>
              Cancel
            </button>
          </div>
        </form>
      )}
      {mode === 'delete' && (
        <RemoveConfirmation
          question={`Delete “${resource.name}”?`}
          consequence="No token is issued for it again and every application loses its machine access. Its identifier stays taken: it can never be registered again."
          confirmLabel="Delete API"
          pending={action.pending}
          onConfirm={remove}
          onCancel={() => setMode('view')}
        />
      )}
      <ErrorAlert message={action.error} />
    </li>
  );
}

/** Which of the owner's confidential applications get which permissions with client credentials. */
function MachineAccess({ resource, machineClients, api, call }: { resource: ApiResource; machineClients: Application[]; api: Api; call: Call }) {
  const params = { api_resource_id: resource.id };
  const grants = useContractCollection(CONTRACTS.listMachineAccess, { params }, call);
  const action = useApiAction({ fields: ['client_id', 'permissions'] });
  const [note, setNote] = useState<string | null>(null);
  const nameOf = (clientId: string) => applicationName(machineClients, clientId);

  async function grant(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const body = { client_id: fieldValue(form, 'client_id'), permissions: checkedValues(form, 'permissions') };
    const result = await action.run(() => api.setMachineAccess({ params, body }));
    if (!result?.ok) return;
    await grants.reload();
    setNote(result.body.permissions.length ? `${nameOf(result.body.client_id)} may now use ${result.body.permissions.join(', ')}.` : null);
  }

  async function revoke(clientId: string) {
    const result = await action.run(() => api.setMachineAccess({ params, body: { client_id: clientId, permissions: [] } }));
    if (!result?.ok) return;
    await grants.reload();
    setNote(`${nameOf(clientId)} has no machine access any more.`);
  }

  return (
    <section className="stack" aria-label={`Machine access to ${resource.name}`}>
      <h4>Machine access</h4>
      <CollectionState {...grants} empty={<p className="hint">No application has machine access yet.</p>}>
        <ul className="portal-values">
          {grants.items?.map((item) => (
            <li key={item.client_id}>
              {nameOf(item.client_id)}: {item.permissions.join(', ')}{' '}
              <button
                type="button"
                className="auth-secondary"
                onClick={() => revoke(item.client_id)}
                disabled={action.pending}
                aria-label={`Remove machine access of ${nameOf(item.client_id)}`}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      </CollectionState>
      {machineClients.length === 0 ? (
        <p className="hint">Register a confidential application to give it machine access.</p>
      ) : (
        <form className="stack" onSubmit={grant} aria-label={`Grant machine access to ${resource.name}`}>
          <SelectField
            label="Application"
            name="client_id"
            choices={machineClients.map((a) => ({ value: a.client_id, label: a.name }))}
            error={action.fieldErrors.client_id}
          />
          <Checks
            legend="Permissions"
            name="permissions"
            options={resource.permissions.map((p) => ({ value: p.name, label: <code>{p.name}</code>, hint: p.description }))}
            error={action.fieldErrors.permissions}
          />
          <div>
            <button type="submit" disabled={action.pending}>
              Grant machine access
            </button>
          </div>
        </form>
      )}
      <ErrorAlert message={action.error} />
      {note && <p role="status">{note}</p>}
    </section>
  );
}
