'use client';

import { useState, type FormEvent } from 'react';
import { useApi } from '../_components/api/use-api';
import { ErrorAlert, StatusNote } from '../_components/auth/error-alert';
import { fieldValue, useApiAction } from '../_components/auth/use-api-action';
import { CollectionState, useContractCollection, useSectionStatus } from '../_components/collection-state';
import { CheckboxGroup, TextField, checkedValues } from '../_components/form-fields';
import { EVENT_TYPES, type EventType } from '@/lib/contract/events';
import { CONTRACTS } from '@/lib/http/contracts';
import { DeliveryLog } from './delivery-log';
import { LocalReceiversNote } from './local-receivers-note';
import { OneTimeSecret } from '@/app/_components/one-time-secret';
import { WebhookCard } from './webhook-card';

const EVENT_CHOICES = EVENT_TYPES.map((type) => ({ value: type, label: type }));

/**
 * Webhook subscriptions (create with a one-time signing secret, test, rotate, disable) and the
 * delivery log below them. The log loads after the subscriptions, so a first step-up prompt is asked
 * once, not once per list.
 */
export function WebhooksSection({ localReceivers }: { localReceivers: boolean }) {
  const { api, call, panel } = useApi();
  const webhooks = useContractCollection(CONTRACTS.listWebhooks, {}, call);
  const { heading, note, setNote, changed } = useSectionStatus(webhooks.reload);
  const create = useApiAction({ fields: ['url', 'events', 'description'] });
  const [secret, setSecret] = useState<{ title: string; value: string } | null>(null);
  // Bumped after a change that queues a delivery (test, retry, process), so the log reads again.
  const [logVersion, setLogVersion] = useState(0);

  async function add(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setNote(null);
    const form = event.currentTarget;
    const description = fieldValue(form, 'description');
    // The checkboxes offer exactly the event catalogue.
    const events = checkedValues(form, 'events') as EventType[];
    const body = { url: fieldValue(form, 'url'), events, ...(description ? { description } : {}) };
    const result = await create.run(() => api.createWebhook({ body }));
    if (!result?.ok) return;
    form.reset();
    setSecret({ title: `Webhook for ${result.body.url} created.`, value: result.body.secret });
    await webhooks.reload();
    setNote('Webhook created. Verify each delivery’s signature with its signing secret.');
  }

  return (
    <section aria-labelledby="webhooks-heading">
      <h2 id="webhooks-heading" ref={heading} tabIndex={-1}>
        Webhooks
      </h2>
      <p className="hint">
        We POST each event you subscribe to your HTTPS endpoint, signed with the Standard Webhooks headers (<code>webhook-id</code>,{' '}
        <code>webhook-timestamp</code>, <code>webhook-signature</code>). Failed deliveries are retried with backoff.
      </p>
      {localReceivers && <LocalReceiversNote />}
      {secret && <OneTimeSecret key={secret.value} title={secret.title} label="Signing secret" value={secret.value} onDone={() => setSecret(null)} />}
      <details className="console-create portal-create" open={webhooks.items?.length === 0 || undefined}>
        <summary>Add a webhook</summary>
        <form className="card stack" onSubmit={add} aria-label="Add a webhook">
          <TextField
            label="Endpoint URL"
            name="url"
            type="url"
            required
            maxLength={2048}
            spellCheck={false}
            error={create.fieldErrors.url}
            hint={
              localReceivers
                ? 'An HTTPS address on the public internet, such as https://example.com/webhooks/identity, or while you develop, a receiver on this machine such as http://localhost:4000/webhooks.'
                : 'An HTTPS address on the public internet, such as https://example.com/webhooks/identity.'
            }
          />
          <CheckboxGroup legend="Events" name="events" options={EVENT_CHOICES} error={create.fieldErrors.events} />
          <TextField label="Description (optional)" name="description" maxLength={200} error={create.fieldErrors.description} />
          <ErrorAlert message={create.error} />
          <div>
            <button type="submit" disabled={create.pending}>
              Add webhook
            </button>
          </div>
        </form>
      </details>
      <CollectionState {...webhooks} empty={<p>No webhooks yet: add one to receive signed events at your endpoint.</p>}>
        <ul className="auth-list">
          {webhooks.items?.map((webhook) => (
            <WebhookCard
              key={`${webhook.id}:${webhook.status}`}
              webhook={webhook}
              api={api}
              onSecret={(value) => setSecret({ title: `New signing secret for ${webhook.url}.`, value })}
              onDelivery={() => setLogVersion((version) => version + 1)}
              onChanged={changed}
            />
          ))}
        </ul>
      </CollectionState>
      <StatusNote message={note} />
      {panel}
      {webhooks.items !== null && <DeliveryLog key={logVersion} webhooks={webhooks.items} api={api} call={call} />}
    </section>
  );
}
