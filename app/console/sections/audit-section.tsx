'use client';

import { useState, type FormEvent } from 'react';
import { ErrorAlert, StatusNote } from '../../_components/auth/error-alert';
import { LocalTime } from '../../_components/auth/local-time';
import { DottedName } from '../../_components/dotted-name';
import { fieldValue } from '../../_components/auth/use-api-action';
import { useCollection, withQuery } from '../console-api';
import { useConsole } from '../console-context';
import { CollectionState, SelectField, TextField } from '../console-ui';
import { toCsv } from '../csv';
import { usePeople } from '../people';
import type { AuditEvent } from '../types';
import { localToIso } from './delegations-section';

interface Filters {
  action?: string;
  actor_id?: string;
  from?: string;
  to?: string;
}

const HEADER = ['created_at', 'action', 'outcome', 'actor_type', 'actor_id', 'subject_type', 'subject_id', 'request_id', 'data'];

const party = (value: { type: string; id: string | null } | null) => (value ? `${value.type}${value.id ? ` ${value.id}` : ''}` : '—');

/** A party as a person reads it: a member's e-mail address when the id is a member's, else its type and id. */
function Party({ value, people }: { value: { type: string; id: string | null } | null; people: Map<string, string> }) {
  const email = value?.id ? people.get(value.id) : undefined;
  if (email) return <span className="auth-email">{email}</span>;
  return <code>{party(value)}</code>;
}

/**
 * The organization's audit log, newest first, filtered by action, actor and time. The CSV export
 * holds the events loaded so far ("Show more" loads further pages), generated in the browser.
 */
export function AuditSection() {
  const { organization } = useConsole();
  const [filters, setFilters] = useState<Filters>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const events = useCollection<AuditEvent>(withQuery('/audit-events', { ...filters }), 'audit_events');
  const loaded = events.items ?? [];
  const { people, members } = usePeople();

  function apply(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const rawFrom = fieldValue(form, 'from');
    const rawTo = fieldValue(form, 'to');
    const from = localToIso(rawFrom);
    const to = localToIso(rawTo);
    if ((rawFrom && !from) || (rawTo && !to)) {
      setFormError('Enter valid dates and times, or leave them empty.');
      return;
    }
    setFormError(null);
    setNote(null);
    setFilters({ action: fieldValue(form, 'action') || undefined, actor_id: fieldValue(form, 'actor_id') || undefined, from, to });
  }

  // The reset button empties the fields itself.
  function clear() {
    setFormError(null);
    setFilters({});
  }

  function exportCsv() {
    const rows = loaded.map((item) => [
      item.created_at,
      item.action,
      item.outcome,
      item.actor.type,
      item.actor.id,
      item.subject?.type,
      item.subject?.id,
      item.request_id,
      item.data,
    ]);
    const blob = new Blob([toCsv([HEADER, ...rows])], { type: 'text/csv;charset=utf-8' });
    const url = URL.createObjectURL(blob);
    const link = document.createElement('a');
    link.href = url;
    link.download = `audit-${organization.slug}-${new Date().toISOString().slice(0, 10)}.csv`;
    document.body.append(link);
    link.click();
    link.remove();
    URL.revokeObjectURL(url);
    setNote(`Exported ${rows.length} ${rows.length === 1 ? 'event' : 'events'}.`);
  }

  return (
    <section aria-labelledby="audit-heading">
      <h2 id="audit-heading">Audit log</h2>
      <p className="hint">What happened in this organization, newest first. Times are in your time zone.</p>
      <form className="card console-filter-form" onSubmit={apply} onReset={clear} aria-label="Filter the audit log">
        <TextField label="Action" name="action" spellCheck={false} hint="For example member.updated." />
        <SelectField
          label="Actor"
          name="actor_id"
          placeholder="Anyone"
          defaultValue=""
          choices={members.map((member) => ({ value: member.user_id, label: member.email }))}
          key={members.length}
        />
        <TextField label="From" name="from" type="datetime-local" />
        <TextField label="To" name="to" type="datetime-local" />
        <ErrorAlert message={formError} />
        <div className="auth-actions console-full">
          <button type="submit">Apply filters</button>
          <button type="reset" className="auth-secondary">
            Clear
          </button>
        </div>
      </form>
      <CollectionState {...events} empty={<p>No events match. Widen the time range or clear the filters.</p>}>
        <>
          <div className="auth-actions">
            <button type="button" className="auth-secondary" onClick={exportCsv}>
              Export {loaded.length} loaded {loaded.length === 1 ? 'event' : 'events'} as CSV
            </button>
          </div>
          <div className="table-wrap" role="region" aria-label="Audit events" tabIndex={0}>
            <table>
              <caption className="console-visually-hidden">Audit events</caption>
              <thead>
                <tr>
                  <th scope="col">Action</th>
                  <th scope="col">When</th>
                  <th scope="col">Outcome</th>
                  <th scope="col">Actor</th>
                  <th scope="col">Subject</th>
                  <th scope="col">Request</th>
                </tr>
              </thead>
              <tbody>
                {loaded.map((item) => (
                  <tr key={item.id}>
                    <th scope="row">
                      <DottedName name={item.action} />
                    </th>
                    <td data-label="When">
                      <LocalTime iso={item.created_at} />
                    </td>
                    <td data-label="Outcome">{item.outcome}</td>
                    <td data-label="Actor">
                      <Party value={item.actor} people={people} />
                    </td>
                    <td data-label="Subject">
                      <Party value={item.subject} people={people} />
                    </td>
                    <td data-label="Request">
                      <code>{item.request_id ?? '—'}</code>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      </CollectionState>
      <StatusNote message={note} />
    </section>
  );
}
