'use client';

import { useEffect, useState, type FormEvent } from 'react';
import { RemoveConfirmation } from '@/app/_components/confirmation';
import { CopyableValue } from '@/app/_components/copy-button';
import { Facts } from '@/app/_components/facts';
import { OneTimeSecret } from '@/app/_components/one-time-secret';
import { StatusBadge } from '@/app/_components/status-badge';
import { CONTRACTS } from '@/lib/http/contracts';
import type { Api } from '../../_components/api/use-api';
import { StatusNote } from '../../_components/auth/error-alert';
import { LocalTime } from '../../_components/auth/local-time';
import { fieldValue } from '../../_components/auth/use-api-action';
import { useCollection, useConsoleAction, useConsoleApi } from '../console-api';
import { useConsole } from '../console-context';
import { CollectionState, TextField, useSectionStatus } from '../console-ui';
import type { ScimToken } from '../contract-types';

/**
 * Directory sync (SCIM 2.0): the address a directory (Entra ID, Okta ...) provisions to, and the
 * tokens it authenticates with. A token is shown once, at issue; revoking it stops that directory at once.
 */
export function DirectorySection() {
  const { organization } = useConsole();
  const tokens = useCollection(CONTRACTS.listScimTokens, { params: { id: organization.id } });
  const { heading, note, setNote, changed } = useSectionStatus(tokens.reload);
  const { api, panel } = useConsoleApi();
  const issue = useConsoleAction(['name']);
  const [issued, setIssued] = useState<{ name: string; token: string } | null>(null);
  // The address the browser reached us at: known only in the browser (the section renders on the server first).
  const [origin, setOrigin] = useState('');
  useEffect(() => setOrigin(window.location.origin), []);

  async function add(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setNote(null);
    const form = event.currentTarget;
    const result = await issue.run(() => api.issueScimToken({ params: { id: organization.id }, body: { name: fieldValue(form, 'name') } }));
    if (!result?.ok) return;
    form.reset();
    setIssued(result.body);
    await changed(`Token “${result.body.name}” issued.`);
  }

  return (
    <section aria-labelledby="directory-heading">
      <h2 id="directory-heading" ref={heading} tabIndex={-1}>
        Directory sync
      </h2>
      <p className="hint">
        Connect your identity provider&rsquo;s provisioning (SCIM 2.0): it creates, updates and deactivates your people and groups here. Members and groups it
        manages are marked “Directory” in their lists; change them in the directory.
      </p>
      <Facts
        label="Provisioning settings"
        facts={[
          origin !== '' && { term: 'Tenant URL', value: <CopyableValue value={`${origin}/scim/v2`} label="SCIM tenant URL" /> },
          { term: 'Authentication', value: 'Bearer token (issue one below)' },
        ]}
      />
      {issued && (
        <OneTimeSecret key={issued.token} title={`Token “${issued.name}” issued.`} label="SCIM token" value={issued.token} onDone={() => setIssued(null)} />
      )}
      <form className="stack card" onSubmit={add} aria-label="Issue a SCIM token">
        <h3 className="console-form-title">Issue a token</h3>
        <TextField
          label="Token name"
          name="name"
          required
          maxLength={100}
          hint="Which directory holds it, e.g. “Entra ID production”."
          error={issue.fieldErrors.name}
        />
        {issue.alert}
        <div>
          <button type="submit" disabled={issue.pending}>
            Issue token
          </button>
        </div>
      </form>
      <CollectionState {...tokens} empty={<p>No tokens yet.</p>}>
        <ul className="auth-list">
          {tokens.items?.map((token) => (
            <TokenRow key={token.id} token={token} api={api} onChanged={changed} />
          ))}
        </ul>
      </CollectionState>
      <StatusNote message={note} />
      {panel}
    </section>
  );
}

function TokenRow({ token, api, onChanged }: { token: ScimToken; api: Api; onChanged: (message: string) => Promise<void> }) {
  const [confirming, setConfirming] = useState(false);
  const { pending, run, alert } = useConsoleAction();
  const organizationId = useConsole().organization.id;

  async function revoke() {
    const result = await run(() => api.revokeScimToken({ params: { id: organizationId, token_id: token.id } }));
    setConfirming(false);
    if (result?.ok) await onChanged(`Token “${token.name}” revoked.`);
  }

  return (
    <li className="card auth-item">
      <div className="auth-item-main">
        <p className="auth-item-title">
          <strong>{token.name}</strong> <StatusBadge value={token.status} />
        </p>
        <p className="hint">
          <code>{token.prefix}…</code> · issued <LocalTime iso={token.created_at} /> ·{' '}
          {token.last_used_at ? (
            <>
              last used <LocalTime iso={token.last_used_at} />
            </>
          ) : (
            'never used'
          )}
        </p>
      </div>
      {token.status === 'active' &&
        (confirming ? (
          <RemoveConfirmation
            question={`Revoke “${token.name}”?`}
            consequence="The directory holding it can no longer provision anything until you give it a new token."
            confirmLabel="Revoke token"
            pending={pending}
            onConfirm={() => void revoke()}
            onCancel={() => setConfirming(false)}
          />
        ) : (
          <div className="auth-actions">
            <button type="button" className="auth-secondary" onClick={() => setConfirming(true)} disabled={pending} aria-label={`Revoke ${token.name}`}>
              Revoke
            </button>
          </div>
        ))}
      {alert}
    </li>
  );
}
