'use client';

import { CONTRACTS } from '@/lib/http/contracts';
import { ErrorAlert, StatusNote } from '../../_components/auth/error-alert';
import { useCollection, useConsoleApi } from '../console-api';
import { useConsole } from '../console-context';
import { CollectionState, useSectionStatus } from '../console-ui';
import { ConnectionForm } from './sso-connection-form';
import { ConnectionRow } from './sso-connection-row';

/**
 * Single sign-on: the organization's own identity providers (OpenID Connect or SAML) for its verified
 * domains. Each connection shows the values to configure at the provider, can be tested (a health
 * check that changes nothing), activated once the provider validates, disabled and deleted.
 */
export function SsoSection() {
  const { organization, can } = useConsole();
  const connections = useCollection(CONTRACTS.listFederationConnections, { params: { id: organization.id } });
  const domains = useCollection(CONTRACTS.listOrganizationDomains, { params: { id: organization.id } });
  const { heading, note, setNote, changed } = useSectionStatus(connections.reload);
  const { api, panel } = useConsoleApi();
  const manage = can('federation.manage');
  const verified = (domains.items ?? []).filter((domain) => domain.status === 'verified');

  return (
    <section aria-labelledby="sso-heading">
      <h2 id="sso-heading" ref={heading} tabIndex={-1}>
        Single sign-on
      </h2>
      <p className="hint">
        People with an address at a verified domain sign in through your identity provider and join the organization as members.{' '}
        {manage ? '' : 'Your role lets you see connections but not change them.'}
      </p>
      {/* The form waits for the domains: until they arrive, "verify a domain first" would be said wrongly. */}
      {manage && <ErrorAlert message={domains.error} />}
      {manage && domains.items !== null && (
        <ConnectionForm
          api={api}
          verified={verified}
          onRegistered={async (message) => {
            setNote(null);
            await changed(message);
          }}
        />
      )}
      <CollectionState {...connections} empty={<p>No connections yet.</p>}>
        <ul className="auth-list">
          {connections.items?.map((connection) => (
            <ConnectionRow key={connection.id} connection={connection} manage={manage} api={api} onChanged={changed} />
          ))}
        </ul>
      </CollectionState>
      <StatusNote message={note} />
      {panel}
    </section>
  );
}
