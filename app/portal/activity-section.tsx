'use client';

import { LocalTime } from '../_components/auth/local-time';
import { DottedName } from '../_components/dotted-name';
import { useApi } from '../_components/api/use-api';
import { CollectionState, useContractCollection } from '../_components/collection-state';
import type { ItemOf } from '@/lib/contract/client';
import { CONTRACTS, type Contracts } from '@/lib/http/contracts';

type DeveloperEvent = ItemOf<Contracts['listDeveloperAuditEvents']>;

const kind = (type: string) => type.replace(/_/g, ' ');

/** The subject by its name (the API reads it now: a key's or application's name, a webhook's host); by its id once it is gone. */
function Subject({ event }: { event: DeveloperEvent }) {
  if (!event.subject_type) return <>—</>;
  if (!event.subject_name) return <code>{`${kind(event.subject_type)} ${event.subject_id ?? ''}`}</code>;
  return (
    <span>
      <span className="hint">{kind(event.subject_type)}</span> <strong>{event.subject_name}</strong>
    </span>
  );
}

/** The caller's own developer activity (listDeveloperAuditEvents), newest first. */
export function ActivitySection() {
  const { call, panel } = useApi();
  const events = useContractCollection(CONTRACTS.listDeveloperAuditEvents, {}, call);

  return (
    <section aria-labelledby="activity-heading">
      <h2 id="activity-heading">Activity</h2>
      <p className="hint">What you did with your applications, API keys and webhooks, newest first. Times are in your time zone.</p>
      <CollectionState {...events} empty={<p>No activity yet: register an application, create an API key or add a webhook, and it shows here.</p>}>
        <div className="table-wrap" role="region" aria-label="Activity events" tabIndex={0}>
          <table>
            <thead>
              <tr>
                <th scope="col">Action</th>
                <th scope="col">When</th>
                <th scope="col">Outcome</th>
                <th scope="col">Subject</th>
                <th scope="col">Request</th>
              </tr>
            </thead>
            <tbody>
              {events.items?.map((event) => (
                <tr key={event.id}>
                  <th scope="row">
                    <DottedName name={event.action} />
                  </th>
                  <td data-label="When">
                    <LocalTime iso={event.created_at} />
                  </td>
                  <td data-label="Outcome">{event.outcome}</td>
                  <td data-label="Subject">
                    <Subject event={event} />
                  </td>
                  <td data-label="Request">
                    <code>{event.request_id ?? '—'}</code>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </CollectionState>
      {panel}
    </section>
  );
}
