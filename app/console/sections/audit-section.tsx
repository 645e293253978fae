'use client';

import { useState, type FormEvent } from 'react';
import { ErrorAlert, StatusNote } from '../../_components/auth/error-alert';
import { LocalTime } from '../../_components/auth/local-time';
import { DottedName } from '../../_components/dotted-name';
import { fieldValue } from '../../_components/auth/use-api-action';
import { CONTRACTS } from '@/lib/http/contracts';
import { useCollection } from '../console-api';
import { useConsole } from '../console-context';
import { CollectionState, SelectField, TextField } from '../console-ui';
import { toCsv } from '../csv';
import { usePeople } from '../people';
import type { AuditEvent, AuditParty } from '../contract-types';
import { localToIso } from './delegations-section';

interface Filters {
  action?: string;
  actor_id?: string;
  from?: string;
  to?: string;
}

const HEADER = [
  'created_at',
  'action',
  'outcome',
  'actor_type',
  'actor_id',
  'subject_type',
  'subject_id',
  'request_id',
  'data',
  'actor_name',
  'subject_name',
  'changes',
];

/** Subjects that are people: their address says it all, without the type in front (actors always are). */
const PEOPLE = new Set(['user', 'membership']);

const party = (value: AuditParty | null) => (value ? `${value.type}${value.id ? ` ${value.id}` : ''}` : '—');

/**
 * A party as a person reads it: its name (an address, a role's or group's name ...) as the API read it
 * just now, or a member's address from the console's list; else, when it has none any more (deleted,
 * or not for this reader), its type and id.
 */
function Party({ value, people, person = false }: { value: AuditParty | null; people: Map<string, string>; person?: boolean }) {
  const name = value?.name ?? (value?.id ? people.get(value.id) : undefined);
  if (!value || !name) return <code>{party(value)}</code>;
  if (person || PEOPLE.has(value.type)) return <span className="auth-email">{name}</span>;
  return (
    <span>
      <span className="console-audit-type">{value.type.replace(/_/g, ' ')}</span> <strong>{name}</strong>
    </span>
  );
}

const shown = (value: unknown) => (value === null || value === undefined || value === '' ? 'none' : String(value));

/** "role: member → admin", or the field's name alone when its values are not recorded (secrets never are). */
export function changeText(change: NonNullable<AuditEvent['changes']>[number]): string {
  if (!('to' in change) && !('from' in change)) return change.field;
  return 'from' in change ? `${change.field}: ${shown(change.from)} → ${shown(change.to)}` : `${change.field} → ${shown(change.to)}`;
}

/** Under the subject: what the event changed on it. */
function Changes({ changes }: { changes: AuditEvent['changes'] }) {
  if (!changes || changes.length === 0) return null;
  return (
    <ul className="console-audit-changes" aria-label="Changes">
      {changes.map((change) => (
        <li key={change.field}>{changeText(change)}</li>
      ))}
    </ul>
  );
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
  const events = useCollection(CONTRACTS.listOrganizationAuditEvents, { params: { id: organization.id }, query: filters });
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
      item.actor.name,
      item.subject?.name,
      item.changes?.map(changeText).join('; '),
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
                      {/* Nearly every organization event records a success: only the exception takes room. */}
                      {item.outcome !== 'success' && <span className="console-audit-outcome">{item.outcome}</span>}
                    </th>
                    <td data-label="When">
                      <LocalTime iso={item.created_at} />
                    </td>
                    <td data-label="Actor" className="console-audit-party">
                      <Party value={item.actor} people={people} person />
                    </td>
                    <td data-label="Subject" className="console-audit-party">
                      <Party value={item.subject} people={people} />
                      <Changes changes={item.changes} />
                    </td>
                    <td data-label="Request" className="console-audit-request">
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
