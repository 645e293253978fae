'use client';

import { useState, type FormEvent } from 'react';
import type { Api } from '../_components/api/use-api';
import { ErrorAlert } from '../_components/auth/error-alert';
import { LocalTime } from '../_components/auth/local-time';
import { fieldValue, useApiAction } from '../_components/auth/use-api-action';
import { checkedValues, TextField } from '../_components/form-fields';
import { RemoveConfirmation } from '@/app/_components/confirmation';
import type { ItemOf } from '@/lib/contract/client';
import type { Contracts } from '@/lib/http/contracts';
import { RedirectsAndScopes, redirectUris } from './application-fields';
import type { ScopeChoice } from './application-scopes';
import { CertificationStatus } from './certification-status';
import { OneTimeSecret } from '@/app/_components/one-time-secret';
import { CopyableValue, ProviderFacts, Quickstart, useIssuer } from './quickstart';

export type Application = ItemOf<Contracts['listApplications']>;

type Mode = 'view' | 'edit' | 'disable';

/**
 * One application: what a relying party is configured with (issuer, discovery URL, client ID,
 * redirect URIs, each with a Copy button, and a Node.js quickstart), its certification, and the
 * owner's changes: edit, rotate the secret (shown once), disable (asked in place).
 */
export function ApplicationCard({
  application,
  scopes,
  api,
  onChanged,
}: {
  application: Application;
  scopes: ScopeChoice[];
  api: Api;
  onChanged: (message: string) => Promise<void>;
}) {
  const [mode, setMode] = useState<Mode>('view');
  const [secret, setSecret] = useState<string | null>(null);
  const action = useApiAction({ fields: ['name', 'redirect_uris', 'scopes'] });
  const params = { application_id: application.id };
  const enabled = application.status === 'enabled';
  const issuer = useIssuer();

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const body = { name: fieldValue(form, 'name'), redirect_uris: redirectUris(form), scopes: checkedValues(form, 'scopes') };
    const result = await action.run(() => api.updateApplication({ params, body }));
    if (result?.ok) await onChanged(`“${result.body.name}” saved.`);
  }

  async function rotate() {
    const result = await action.run(() => api.rotateApplicationSecret({ params }));
    if (result?.ok) setSecret(result.body.client_secret);
  }

  async function disable() {
    const result = await action.run(() => api.disableApplication({ params }));
    setMode('view');
    if (result?.ok) await onChanged(`“${application.name}” is disabled.`);
  }

  return (
    <li className="card auth-item portal-item">
      <div className="auth-item-main">
        <h3 className="auth-item-title portal-item-title">
          {application.name} <span className={`badge ${enabled ? 'badge-ready' : 'badge-not_ready'}`}>{enabled ? 'Enabled' : 'Disabled'}</span>
        </h3>
        <dl className="portal-facts">
          <ProviderFacts issuer={issuer} />
          <div>
            <dt>Client ID</dt>
            <dd>
              <CopyableValue value={application.client_id} label="client ID" />
            </dd>
          </div>
          <div>
            <dt>Type</dt>
            <dd>{application.client_type === 'confidential' ? 'Confidential (client secret)' : 'Public (PKCE, no secret)'}</dd>
          </div>
          <div>
            <dt>Redirect URIs</dt>
            <dd>
              <ul className="portal-values">
                {application.redirect_uris.map((uri) => (
                  <li key={uri}>
                    <CopyableValue value={uri} label={`redirect URI ${uri}`} />
                  </li>
                ))}
              </ul>
            </dd>
          </div>
          <div>
            <dt>Registered</dt>
            <dd>
              <LocalTime iso={application.created_at} />
            </dd>
          </div>
        </dl>
        <CertificationStatus applicationId={application.id} api={api} key={application.updated_at} />
        {enabled && issuer && <Quickstart application={application} issuer={issuer} />}
      </div>
      {secret && <OneTimeSecret title={`New client secret for “${application.name}”.`} label="Client secret" value={secret} onDone={() => setSecret(null)} />}
      {enabled && mode === 'view' && (
        <div className="auth-actions portal-actions">
          <button type="button" className="auth-secondary" onClick={() => setMode('edit')} disabled={action.pending} aria-label={`Edit ${application.name}`}>
            Edit
          </button>
          {application.client_type === 'confidential' && (
            <button type="button" className="auth-secondary" onClick={rotate} disabled={action.pending} aria-label={`Rotate secret of ${application.name}`}>
              Rotate secret
            </button>
          )}
          <button
            type="button"
            className="auth-secondary auth-danger"
            onClick={() => setMode('disable')}
            disabled={action.pending}
            aria-label={`Disable ${application.name}`}
          >
            Disable
          </button>
        </div>
      )}
      {mode === 'edit' && (
        <form className="stack portal-edit" onSubmit={save} aria-label={`Edit ${application.name}`}>
          <TextField label="Application name" name="name" required maxLength={100} defaultValue={application.name} error={action.fieldErrors.name} />
          <RedirectsAndScopes scopes={scopes} errors={action.fieldErrors} initial={application} />
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
      {mode === 'disable' && (
        <RemoveConfirmation
          question={`Disable “${application.name}”?`}
          consequence="Its secrets, grants and tokens stop working at once and people can no longer sign in to it. This cannot be undone."
          confirmLabel="Disable application"
          pending={action.pending}
          onConfirm={disable}
          onCancel={() => setMode('view')}
        />
      )}
      <ErrorAlert message={action.error} />
    </li>
  );
}
