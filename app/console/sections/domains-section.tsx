'use client';

import { useState, type FormEvent } from 'react';
import { RemoveConfirmation } from '@/app/_components/confirmation';
import { CopyableValue } from '@/app/_components/copy-button';
import { Facts } from '@/app/_components/facts';
import { StatusBadge } from '@/app/_components/status-badge';
import { CONTRACTS } from '@/lib/http/contracts';
import type { Api } from '../../_components/api/use-api';
import { StatusNote } from '../../_components/auth/error-alert';
import { LocalTime } from '../../_components/auth/local-time';
import { fieldValue } from '../../_components/auth/use-api-action';
import { useCollection, useConsoleAction, useConsoleApi } from '../console-api';
import { useConsole } from '../console-context';
import { CollectionState, TextField, useSectionStatus } from '../console-ui';
import type { Domain } from '../contract-types';

/**
 * The organization's domains: claim one, publish the TXT record it names, verify it through DNS.
 * Verified domains are what single sign-on connections serve.
 */
export function DomainsSection() {
  const { organization, can } = useConsole();
  const domains = useCollection(CONTRACTS.listOrganizationDomains, { params: { id: organization.id } });
  const { heading, note, setNote, changed } = useSectionStatus(domains.reload);
  const { api, panel } = useConsoleApi();
  const register = useConsoleAction(['domain']);
  const manage = can('domains.manage');

  async function add(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setNote(null);
    const form = event.currentTarget;
    const result = await register.run(() => api.registerOrganizationDomain({ params: { id: organization.id }, body: { domain: fieldValue(form, 'domain') } }));
    if (!result?.ok) return;
    form.reset();
    await changed(`${result.body.domain} registered: publish its TXT record, then verify it.`);
  }

  return (
    <section aria-labelledby="domains-heading">
      <h2 id="domains-heading" ref={heading} tabIndex={-1}>
        Domains
      </h2>
      <p className="hint">
        Prove that the organization controls a domain with a DNS record; people with addresses at a verified domain can then sign in through your single
        sign-on. {manage ? '' : 'Your role lets you see domains but not change them.'}
      </p>
      {manage && (
        <form className="stack card" onSubmit={add} aria-label="Register a domain">
          <h3 className="console-form-title">Register a domain</h3>
          <TextField
            label="Domain"
            name="domain"
            required
            maxLength={253}
            hint="For example example.com, without https:// or a path."
            error={register.fieldErrors.domain}
          />
          {register.alert}
          <div>
            <button type="submit" disabled={register.pending}>
              Register domain
            </button>
          </div>
        </form>
      )}
      <CollectionState {...domains} empty={<p>No domains yet.</p>}>
        <ul className="auth-list">
          {domains.items?.map((domain) => (
            <DomainRow key={domain.id} domain={domain} manage={manage} api={api} onChanged={changed} />
          ))}
        </ul>
      </CollectionState>
      <StatusNote message={note} />
      {panel}
    </section>
  );
}

/**
 * Why a verification failed, for people: the API's detail is generic, its `reason` and `found` say
 * more. Null for other refusals (a passed verification window), whose own words say what to do.
 */
const FAILURES: Record<string, (name: string) => string> = {
  no_record: (name) => `No TXT record was found at ${name} yet. DNS changes can take a while to spread: try again in a few minutes.`,
  other_values: (name) => `TXT records were found at ${name}, but none holds the value shown here.`,
  timeout: () => 'The DNS lookup timed out. Try again in a moment.',
  lookup_failed: () => 'The DNS lookup failed. Try again in a moment.',
};

function verificationFailure(problem: object, name: string): string | null {
  const why = 'reason' in problem && typeof problem.reason === 'string' ? FAILURES[problem.reason] : undefined;
  if (!why) return null;
  const found = 'found' in problem && Array.isArray(problem.found) ? problem.found.filter((v): v is string => typeof v === 'string') : [];
  const values = found.length ? ` These values were found: ${found.map((v) => `“${v}”`).join(', ')}.` : '';
  return why(name) + values;
}

function DomainRow({ domain, manage, api, onChanged }: { domain: Domain; manage: boolean; api: Api; onChanged: (message: string) => Promise<void> }) {
  const [confirming, setConfirming] = useState(false);
  const { pending, run, alert, setError } = useConsoleAction();
  const params = { id: useConsole().organization.id, domain_id: domain.id };

  async function verify() {
    const result = await run(() => api.verifyOrganizationDomain({ params }));
    const failure = result && !result.ok ? verificationFailure(result.body, domain.verification.name) : null;
    if (failure) setError(failure);
    if (result?.ok) await onChanged(`${domain.domain} is verified.`);
  }

  async function remove() {
    const result = await run(() => api.deleteOrganizationDomain({ params }));
    setConfirming(false);
    if (result?.ok) await onChanged(`${domain.domain} deleted.`);
  }

  return (
    <li className="card auth-item">
      <div className="auth-item-main">
        <p className="auth-item-title">
          <strong>{domain.domain}</strong> <StatusBadge value={domain.status} />
        </p>
        {domain.status === 'pending' && <DnsRecord domain={domain} />}
        {domain.status === 'failed' && <p className="hint">Not verified in time: delete it and register it again for a new record.</p>}
      </div>
      {manage && confirming ? (
        <RemoveConfirmation
          question={`Delete ${domain.domain}?`}
          consequence="A domain an active single sign-on connection relies on cannot be deleted: disable the connection first."
          confirmLabel="Delete domain"
          pending={pending}
          onConfirm={() => void remove()}
          onCancel={() => setConfirming(false)}
        />
      ) : manage ? (
        <div className="auth-actions">
          {domain.status === 'pending' && (
            <button type="button" onClick={() => void verify()} disabled={pending} aria-label={`Verify ${domain.domain}`}>
              Verify
            </button>
          )}
          <button type="button" className="auth-secondary" onClick={() => setConfirming(true)} disabled={pending} aria-label={`Delete ${domain.domain}`}>
            Delete
          </button>
        </div>
      ) : null}
      {alert}
    </li>
  );
}

/** The record to publish, each value with a Copy button. */
function DnsRecord({ domain }: { domain: Domain }) {
  return (
    <Facts
      label={`DNS record for ${domain.domain}`}
      facts={[
        { term: 'Type', value: domain.verification.record_type },
        { term: 'Name', value: <CopyableValue value={domain.verification.name} label="record name" /> },
        { term: 'Value', value: <CopyableValue value={domain.verification.value} label="record value" /> },
        domain.verify_before !== null && { term: 'Verify before', value: <LocalTime iso={domain.verify_before} /> },
      ]}
    />
  );
}
