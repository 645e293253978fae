'use client';

import { useState } from 'react';
import { RemoveConfirmation } from '@/app/_components/confirmation';
import { CopyableValue } from '@/app/_components/copy-button';
import { Facts } from '@/app/_components/facts';
import { StatusBadge } from '@/app/_components/status-badge';
import type { Api } from '../../_components/api/use-api';
import { StatusNote } from '../../_components/auth/error-alert';
import { useConsoleAction } from '../console-api';
import { useConsole } from '../console-context';
import type { FederationConnection } from '../contract-types';

/** What a provider check's classification means, for people (the API answers only the classification). */
const CHECKS: Record<string, string> = {
  ok: 'The provider answered and its configuration is valid.',
  issuer_mismatch: "The provider's discovery document names another issuer than the one configured.",
  insecure_endpoint: 'One of the provider’s endpoints is not on HTTPS.',
  no_rs256_support: 'The provider does not sign ID tokens with RS256.',
  no_rs256_key: "The provider's key set has no RSA signing key.",
  invalid_metadata: "The provider's metadata could not be read.",
  invalid_jwks: "The provider's key set could not be read.",
  no_entity_id: 'The SAML metadata has no entity id.',
  no_sso_service: 'The SAML metadata has no single sign-on service (HTTP-Redirect).',
  insecure_sso_url: 'The SAML single sign-on address is not on HTTPS.',
  no_signing_certificate: 'The SAML metadata has no signing certificate.',
  certificate_expired: 'The SAML signing certificate has expired.',
  certificate_not_yet_valid: 'The SAML signing certificate is not valid yet.',
};

const FETCH: Record<string, string> = {
  timeout: 'did not answer in time',
  private_address: 'is on a private or local network address',
  tls_error: 'has a certificate that is not trusted',
  http_error: 'answered with an error',
  dns_refused: 'could not be found in DNS',
  not_https: 'is not on HTTPS',
  too_large: 'answered with too large a document',
  too_many_redirects: 'redirected too many times',
  network_error: 'could not be reached',
};

export function checkText(classification: string): string {
  const fetch = /^(discovery|jwks|metadata)_(.+)$/.exec(classification);
  if (fetch) return `The provider's ${fetch[1] === 'jwks' ? 'key set' : fetch[1]} address ${FETCH[fetch[2]!] ?? 'could not be fetched'}.`;
  return CHECKS[classification] ?? `The provider did not pass validation (${classification}).`;
}

export function ConnectionRow({
  connection,
  manage,
  api,
  onChanged,
}: {
  connection: FederationConnection;
  manage: boolean;
  api: Api;
  onChanged: (message: string) => Promise<void>;
}) {
  const [confirming, setConfirming] = useState(false);
  const [health, setHealth] = useState<string | null>(null);
  const { pending, run, alert, setError } = useConsoleAction();
  const params = { id: useConsole().organization.id, connection_id: connection.connection_id };
  const name = connection.display_name;

  async function test() {
    const result = await run(() => api.checkFederationConnectionHealth({ params }));
    if (result?.ok) setHealth(`${result.body.healthy ? 'Healthy' : 'Problem'}: ${checkText(result.body.classification)}`);
  }

  async function change(status: 'active' | 'disabled') {
    const result = await run(() => api.changeFederationConnection({ params, body: { status } }));
    const classification = result && !result.ok ? (result.body as { classification?: unknown }).classification : undefined;
    if (typeof classification === 'string') setError(`Not activated. ${checkText(classification)}`);
    if (result?.ok) await onChanged(`${name} is ${status === 'active' ? 'active' : 'disabled'}.`);
  }

  async function remove() {
    const result = await run(() => api.deleteFederationConnection({ params }));
    setConfirming(false);
    if (result?.ok) await onChanged(`${name} deleted.`);
  }

  return (
    <li className="card auth-item">
      <div className="auth-item-main">
        <p className="auth-item-title">
          <strong>{name}</strong> <StatusBadge value={connection.status} />
        </p>
        <ConnectionValues connection={connection} />
        {/* Present before the check answers, so the answer is announced. */}
        <StatusNote message={health} />
      </div>
      {manage && confirming ? (
        <RemoveConfirmation
          question={`Delete ${name}?`}
          consequence="People who signed in through it keep their accounts; they sign in another way until a new connection serves them."
          confirmLabel="Delete connection"
          pending={pending}
          onConfirm={() => void remove()}
          onCancel={() => setConfirming(false)}
        />
      ) : manage ? (
        <div className="auth-actions">
          <button type="button" className="auth-secondary" onClick={() => void test()} disabled={pending} aria-label={`Test connection to ${name}`}>
            Test connection
          </button>
          {connection.status !== 'active' && (
            <button type="button" onClick={() => void change('active')} disabled={pending} aria-label={`Activate ${name}`}>
              Activate
            </button>
          )}
          {connection.status === 'active' && (
            <button type="button" className="auth-secondary" onClick={() => void change('disabled')} disabled={pending} aria-label={`Disable ${name}`}>
              Disable
            </button>
          )}
          {connection.status === 'disabled' && (
            <button type="button" className="auth-secondary" onClick={() => setConfirming(true)} disabled={pending} aria-label={`Delete ${name}`}>
              Delete
            </button>
          )}
        </div>
      ) : null}
      {alert}
    </li>
  );
}

/** The connection's settings and what to configure at the provider (the client secret is never shown). */
function ConnectionValues({ connection }: { connection: FederationConnection }) {
  const { sp } = connection;
  return (
    <Facts
      label={`Settings of ${connection.display_name}`}
      facts={[
        { term: 'Connection id', value: `${connection.connection_id} (${connection.protocol === 'oidc' ? 'OpenID Connect' : 'SAML 2.0'})` },
        { term: 'Domains', value: connection.domains.map((d) => d.domain).join(', ') },
        connection.issuer !== null && { term: 'Issuer', value: connection.issuer },
        connection.client_id !== null && { term: 'Client ID', value: connection.client_id },
        connection.redirect_uri !== undefined && {
          term: 'Redirect URI to register at your provider',
          value: <CopyableValue value={connection.redirect_uri} label="redirect URI" />,
        },
        sp !== undefined && { term: 'Entity ID (our metadata URL)', value: <CopyableValue value={sp.entity_id} label="entity ID" /> },
        sp !== undefined && { term: 'Assertion consumer service URL', value: <CopyableValue value={sp.acs_url} label="ACS URL" /> },
      ]}
    />
  );
}
