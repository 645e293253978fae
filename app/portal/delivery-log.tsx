'use client';

import { useState } from 'react';
import type { Api, Call } from '../_components/api/use-api';
import { ErrorAlert, StatusNote } from '../_components/auth/error-alert';
import { LocalTime } from '../_components/auth/local-time';
import { DottedName } from '../_components/dotted-name';
import { useApiAction } from '../_components/auth/use-api-action';
import { CollectionState, useContractCollection } from '../_components/collection-state';
import { SelectField } from '../_components/form-fields';
import type { ItemOf } from '@/lib/contract/client';
import { CONTRACTS, type Contracts } from '@/lib/http/contracts';
import type { Webhook } from './webhook-card';

type Delivery = ItemOf<Contracts['listWebhookDeliveries']>;

const STATUS_LABELS: Record<Delivery['status'], string> = { queued: 'Queued', retrying: 'Retrying', delivered: 'Delivered', failed: 'Failed' };
const STATUS_BADGES: Record<Delivery['status'], string> = {
  queued: 'badge-planned',
  retrying: 'badge-manual',
  delivered: 'badge-ready',
  failed: 'badge-not_ready',
};

/** Why the last attempt failed, in the API's safe code and the endpoint's HTTP status when it answered. */
function lastFailure(delivery: Delivery): string {
  if (!delivery.last_failure_code) return '—';
  return delivery.last_response_status ? `${delivery.last_failure_code} (HTTP ${delivery.last_response_status})` : delivery.last_failure_code;
}

/**
 * The delivery log (metadata only: never a payload or a secret): status, attempts, the next retry and
 * the last failure, filtered by webhook; failed deliveries can be retried by hand, and due ones sent now.
 */
export function DeliveryLog({ webhooks, api, call }: { webhooks: Webhook[]; api: Api; call: Call }) {
  const [webhookId, setWebhookId] = useState('');
  const deliveries = useContractCollection(CONTRACTS.listWebhookDeliveries, { query: { webhook_id: webhookId || undefined } }, call);
  const process = useApiAction();
  const [note, setNote] = useState<string | null>(null);
  const urls = new Map(webhooks.map((webhook) => [webhook.id, webhook.url]));
  // With one webhook every row would repeat its address: the column (and the filter) appear from two on.
  const several = webhooks.length > 1;

  async function processDue() {
    setNote(null);
    const result = await process.run(() => api.processWebhookDeliveries({}));
    if (!result?.ok) return;
    await deliveries.reload();
    setNote(
      result.body.queued === 0
        ? 'No deliveries were due.'
        : `${result.body.queued} due ${result.body.queued === 1 ? 'delivery' : 'deliveries'} queued for sending now.`,
    );
  }

  async function refresh() {
    setNote(null);
    await deliveries.reload();
    setNote('Delivery log refreshed.');
  }

  return (
    <section aria-labelledby="deliveries-heading" className="portal-deliveries">
      <h3 id="deliveries-heading">Delivery log</h3>
      <div className="portal-log-tools">
        {several && (
          <SelectField
            label="Webhook"
            name="webhook_id"
            placeholder="All webhooks"
            value={webhookId}
            onChange={setWebhookId}
            choices={webhooks.map((webhook) => ({ value: webhook.id, label: webhook.url }))}
          />
        )}
        <div className="auth-actions">
          <button type="button" className="auth-secondary" onClick={refresh} disabled={deliveries.loading}>
            Refresh
          </button>
          <button type="button" className="auth-secondary" onClick={processDue} disabled={process.pending}>
            Process due deliveries
          </button>
        </div>
      </div>
      <ErrorAlert message={process.error} />
      <StatusNote message={note} />
      <CollectionState {...deliveries} empty={<p>No deliveries yet. Send a test event to a webhook to see one here.</p>}>
        <div className="table-wrap" role="region" aria-label="Deliveries" tabIndex={0}>
          <table>
            <thead>
              <tr>
                <th scope="col">Event</th>
                <th scope="col">Status</th>
                <th scope="col">Attempts</th>
                <th scope="col">Next retry</th>
                <th scope="col">Last failure</th>
                {several && <th scope="col">Webhook</th>}
                <th scope="col">Created</th>
                <th scope="col">
                  <span className="console-visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {deliveries.items?.map((delivery) => (
                <DeliveryRow
                  key={`${delivery.id}:${delivery.status}:${delivery.attempts}`}
                  delivery={delivery}
                  url={several ? (urls.get(delivery.webhook_id) ?? delivery.webhook_id) : null}
                  api={api}
                  onRetried={deliveries.reload}
                />
              ))}
            </tbody>
          </table>
        </div>
      </CollectionState>
    </section>
  );
}

function DeliveryRow({ delivery, url, api, onRetried }: { delivery: Delivery; url: string | null; api: Api; onRetried: () => Promise<void> }) {
  const retry = useApiAction();

  async function again() {
    const result = await retry.run(() => api.retryWebhookDelivery({ body: { delivery_id: delivery.id } }));
    if (result?.ok) await onRetried();
  }

  return (
    <tr>
      <th scope="row">
        <DottedName name={delivery.event_type} />
      </th>
      <td data-label="Status">
        <span className={`badge ${STATUS_BADGES[delivery.status]}`}>{STATUS_LABELS[delivery.status]}</span>
      </td>
      <td data-label="Attempts">{delivery.attempts}</td>
      <td data-label="Next retry">{delivery.next_attempt_at && delivery.status !== 'delivered' ? <LocalTime iso={delivery.next_attempt_at} /> : '—'}</td>
      <td data-label="Last failure">{lastFailure(delivery)}</td>
      {url !== null && (
        <td data-label="Webhook" className="portal-url">
          {url}
        </td>
      )}
      <td data-label="Created">
        <LocalTime iso={delivery.created_at} />
      </td>
      <td>
        {delivery.status === 'failed' && (
          <button type="button" className="auth-secondary" onClick={again} disabled={retry.pending} aria-label={`Retry delivery of ${delivery.event_type}`}>
            Retry
          </button>
        )}
        <ErrorAlert message={retry.error} />
      </td>
    </tr>
  );
}
