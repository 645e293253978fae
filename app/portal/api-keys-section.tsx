'use client';

import { useState, type FormEvent } from 'react';
import { useApi, type Api } from '../_components/api/use-api';
import { ErrorAlert, StatusNote } from '../_components/auth/error-alert';
import { LocalTime } from '../_components/auth/local-time';
import { fieldValue, useApiAction } from '../_components/auth/use-api-action';
import { CollectionState, useContractCollection, useSectionStatus } from '../_components/collection-state';
import { CheckboxGroup, TextField, checkedValues } from '../_components/form-fields';
import { RemoveConfirmation } from '@/app/_components/confirmation';
import type { ItemOf } from '@/lib/contract/client';
import { API_KEY_SCOPES, type ApiKeyScope } from '@/lib/contract/scopes';
import { CONTRACTS, type Contracts } from '@/lib/http/contracts';
import { OneTimeSecret } from '@/app/_components/one-time-secret';

type ApiKey = ItemOf<Contracts['listApiKeys']>;

/** What each scope an API key may carry lets it do, in plain words (a new key scope needs its line). */
const KEY_SCOPE_HINTS: Record<ApiKeyScope, string> = {
  'identity.developer.read': 'Read your applications, API keys, webhooks and deliveries (never their secrets).',
  'identity.applications.manage': 'Register applications in your name (without a client secret).',
  'identity.webhooks.test': 'Send test events to your webhooks.',
};
const KEY_SCOPES = API_KEY_SCOPES.map((value) => ({ value, label: value, hint: KEY_SCOPE_HINTS[value] }));

const STATUS_LABELS: Record<ApiKey['status'], string> = { active: 'Active', expired: 'Expired', revoked: 'Revoked' };

/** `<input type="date">`'s day, as the end of that day in the reader's time zone (an ISO timestamp), or undefined. */
function endOfDay(day: string): string | undefined {
  if (!day) return undefined;
  const end = new Date(`${day}T23:59:59`);
  return Number.isNaN(end.getTime()) ? undefined : end.toISOString();
}

/** API keys for scripts: create with scopes and an optional expiry (the key is shown once), revoke. */
export function ApiKeysSection() {
  const { api, call, panel } = useApi();
  const keys = useContractCollection(CONTRACTS.listApiKeys, {}, call);
  const { heading, note, setNote, changed } = useSectionStatus(keys.reload);
  const create = useApiAction({ fields: ['name', 'scopes', 'expires_at'] });
  const [created, setCreated] = useState<{ name: string; api_key: string } | null>(null);

  async function add(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setNote(null);
    const form = event.currentTarget;
    const expires = endOfDay(fieldValue(form, 'expires_at'));
    // The checkboxes offer exactly the key scopes.
    const scopes = checkedValues(form, 'scopes') as ApiKeyScope[];
    const body = { name: fieldValue(form, 'name'), scopes, ...(expires ? { expires_at: expires } : {}) };
    const result = await create.run(() => api.createApiKey({ body }));
    if (!result?.ok) return;
    form.reset();
    setCreated(result.body);
    await keys.reload();
    setNote(`API key “${result.body.name}” created.`);
  }

  return (
    <section aria-labelledby="api-keys-heading">
      <h2 id="api-keys-heading" ref={heading} tabIndex={-1}>
        API keys
      </h2>
      <p className="hint">
        Keys let your scripts call the developer API (<code>/api/v1/developer/…</code>) as you, within the scopes you choose: send one as{' '}
        <code>Authorization: Bearer idk_…</code>.
      </p>
      {created && (
        <OneTimeSecret
          key={created.api_key}
          title={`API key “${created.name}” created.`}
          label="API key"
          value={created.api_key}
          onDone={() => setCreated(null)}
        />
      )}
      <form className="card stack" onSubmit={add} aria-label="Create an API key">
        <h3 className="console-form-title">Create an API key</h3>
        <TextField
          label="Key name"
          name="name"
          required
          maxLength={100}
          error={create.fieldErrors.name}
          hint="Say where it is used, such as “deploy script”."
        />
        <CheckboxGroup legend="Scopes" name="scopes" options={KEY_SCOPES} defaultChecked={['identity.developer.read']} error={create.fieldErrors.scopes} />
        <TextField
          label="Expires after (optional)"
          name="expires_at"
          type="date"
          error={create.fieldErrors.expires_at}
          hint="The key stops working at the end of that day. Empty: until you revoke it."
        />
        <ErrorAlert message={create.error} />
        <div>
          <button type="submit" disabled={create.pending}>
            Create API key
          </button>
        </div>
      </form>
      <CollectionState {...keys} empty={<p>No API keys yet: create one above to call the developer API from a script.</p>}>
        <ul className="auth-list">
          {keys.items?.map((key) => (
            <ApiKeyRow key={`${key.id}:${key.status}`} apiKey={key} api={api} onChanged={changed} />
          ))}
        </ul>
      </CollectionState>
      <StatusNote message={note} />
      {panel}
    </section>
  );
}

function ApiKeyRow({ apiKey, api, onChanged }: { apiKey: ApiKey; api: Api; onChanged: (message: string) => Promise<void> }) {
  const [confirming, setConfirming] = useState(false);
  const action = useApiAction();

  async function revoke() {
    const result = await action.run(() => api.revokeApiKey({ body: { api_key_id: apiKey.id } }));
    setConfirming(false);
    if (result?.ok) await onChanged(`API key “${apiKey.name}” revoked.`);
  }

  return (
    <li className="card auth-item portal-item">
      <div className="auth-item-main">
        <h3 className="auth-item-title portal-item-title">
          {apiKey.name} <span className={`badge ${apiKey.status === 'active' ? 'badge-ready' : 'badge-not_ready'}`}>{STATUS_LABELS[apiKey.status]}</span>
        </h3>
        <p className="hint">
          <code>{apiKey.prefix}…</code> · {apiKey.scopes.join(', ')}
          <br />
          {apiKey.created_by.kind === 'application' && (
            <>
              Created by the application <code>{apiKey.created_by.client_id}</code>: revoked when you disconnect it in your account.
              <br />
            </>
          )}
          Created <LocalTime iso={apiKey.created_at} />
          {apiKey.expires_at && (
            <>
              {' '}
              · expires <LocalTime iso={apiKey.expires_at} />
            </>
          )}
          <br />
          {apiKey.last_used_at ? (
            <>
              Last used <LocalTime iso={apiKey.last_used_at} />
            </>
          ) : (
            'Never used'
          )}
        </p>
      </div>
      {apiKey.status === 'active' && !confirming && (
        <div className="auth-actions">
          <button type="button" className="auth-secondary auth-danger" onClick={() => setConfirming(true)} aria-label={`Revoke ${apiKey.name}`}>
            Revoke
          </button>
        </div>
      )}
      {confirming && (
        <RemoveConfirmation
          question={`Revoke “${apiKey.name}”?`}
          consequence="Scripts using it are refused from their very next call."
          confirmLabel="Revoke key"
          pending={action.pending}
          onConfirm={revoke}
          onCancel={() => setConfirming(false)}
        />
      )}
      <ErrorAlert message={action.error} />
    </li>
  );
}
