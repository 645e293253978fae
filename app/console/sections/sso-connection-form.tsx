'use client';

import Link from 'next/link';
import { useState, type FormEvent } from 'react';
import type { Api } from '../../_components/api/use-api';
import { fieldValue, passwordValue } from '../../_components/auth/use-api-action';
import { useConsoleAction } from '../console-api';
import { useConsole } from '../console-context';
import { Checks, SelectField, TextField, checkedValues } from '../console-ui';
import type { Domain } from '../contract-types';
import { consoleHref } from '../sections';

const FIELDS = ['connection_id', 'display_name', 'domains', 'issuer', 'client_id', 'client_secret', 'metadata_xml', 'metadata_url'] as const;

/** Register a connection: the common fields, then the protocol's own (OIDC client values, or SAML metadata). */
export function ConnectionForm({ api, verified, onRegistered }: { api: Api; verified: Domain[]; onRegistered: (message: string) => Promise<void> }) {
  const { organization } = useConsole();
  const [protocol, setProtocol] = useState<'oidc' | 'saml'>('oidc');
  const { pending, fieldErrors, run, alert } = useConsoleAction(FIELDS);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const common = {
      connection_id: fieldValue(form, 'connection_id'),
      display_name: fieldValue(form, 'display_name'),
      domains: checkedValues(form, 'domains'),
    };
    const metadataUrl = fieldValue(form, 'metadata_url');
    const body =
      protocol === 'oidc'
        ? {
            ...common,
            protocol,
            issuer: fieldValue(form, 'issuer'),
            client_id: fieldValue(form, 'client_id'),
            client_secret: passwordValue(form, 'client_secret'),
          }
        : { ...common, protocol, ...(metadataUrl ? { metadata_url: metadataUrl } : { metadata_xml: fieldValue(form, 'metadata_xml') }) };
    const result = await run(() => api.registerFederationConnection({ params: { id: organization.id }, body }));
    if (!result?.ok) return;
    form.reset();
    await onRegistered(`${result.body.display_name} registered: configure your provider with the values shown, then activate it.`);
  }

  if (verified.length === 0) {
    return (
      <p className="card">
        Single sign-on serves verified domains: <Link href={consoleHref(organization.id, 'domains')}>verify a domain first</Link>.
      </p>
    );
  }
  return (
    <form className="stack card" onSubmit={submit} aria-label="Connect an identity provider">
      <h3 className="console-form-title">Connect an identity provider</h3>
      <SelectField
        label="Protocol"
        name="protocol"
        value={protocol}
        onChange={(value) => setProtocol(value === 'saml' ? 'saml' : 'oidc')}
        choices={[
          { value: 'oidc', label: 'OpenID Connect' },
          { value: 'saml', label: 'SAML 2.0' },
        ]}
      />
      <ProviderSetup protocol={protocol} />
      <TextField
        label="Connection id"
        name="connection_id"
        required
        maxLength={128}
        pattern="[A-Za-z0-9][A-Za-z0-9_.:\-]{1,127}"
        hint="Letters, digits and _ . : -; used in sign-in links."
        error={fieldErrors.connection_id}
      />
      <TextField
        label="Display name"
        name="display_name"
        required
        maxLength={100}
        hint="People see “Continue with <display name>” on the sign-in page."
        error={fieldErrors.display_name}
      />
      <Checks legend="Domains it serves" name="domains" options={verified.map((d) => ({ value: d.id, label: d.domain }))} error={fieldErrors.domains} />
      {protocol === 'oidc' ? (
        <>
          <TextField
            label="Issuer URL"
            name="issuer"
            type="url"
            required
            maxLength={2048}
            hint="https://, exactly as your provider's discovery document names it."
            error={fieldErrors.issuer}
          />
          <TextField label="Client ID" name="client_id" required maxLength={255} error={fieldErrors.client_id} />
          <TextField
            label="Client secret"
            name="client_secret"
            type="password"
            required
            maxLength={1024}
            hint="Kept sealed by the service and never shown again."
            error={fieldErrors.client_secret}
          />
        </>
      ) : (
        <>
          <TextField
            label="Metadata URL"
            name="metadata_url"
            type="url"
            maxLength={2048}
            hint="Or paste the metadata XML below."
            error={fieldErrors.metadata_url}
          />
          <TextField label="Metadata XML" name="metadata_xml" multiline rows={5} maxLength={262144} error={fieldErrors.metadata_xml} />
        </>
      )}
      {alert}
      <div>
        <button type="submit" disabled={pending}>
          Register connection
        </button>
      </div>
    </form>
  );
}

/** What to set up at the provider first; the values it needs from us come back on the connection's card. */
function ProviderSetup({ protocol }: { protocol: 'oidc' | 'saml' }) {
  return protocol === 'oidc' ? (
    <p className="hint">
      At your provider, create a web application (a confidential client, authorization code flow, scopes openid and email) and copy its issuer URL, client ID
      and client secret here. Once registered, the connection shows the redirect URI to register at your provider: do that before activating it.
    </p>
  ) : (
    <p className="hint">
      Give your provider&rsquo;s metadata here. Once registered, the connection shows our entity ID and assertion consumer service URL to configure at your
      provider: do that before activating it.
    </p>
  );
}
