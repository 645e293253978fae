'use client';

import { useState } from 'react';
import type { Api } from '../_components/api/use-api';
import { ErrorAlert, StatusNote } from '../_components/auth/error-alert';
import { LocalTime } from '../_components/auth/local-time';
import { DottedName } from '../_components/dotted-name';
import { useApiAction } from '../_components/auth/use-api-action';
import { RemoveConfirmation } from '@/app/_components/confirmation';
import type { ItemOf } from '@/lib/contract/client';
import type { Contracts } from '@/lib/http/contracts';

export type Webhook = ItemOf<Contracts['listWebhooks']>;

/** One subscription: its endpoint and events, and test / rotate / disable. */
export function WebhookCard({
  webhook,
  api,
  onSecret,
  onDelivery,
  onChanged,
}: {
  webhook: Webhook;
  api: Api;
  onSecret: (secret: string) => void;
  onDelivery: () => void;
  onChanged: (message: string) => Promise<void>;
}) {
  const [confirming, setConfirming] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const action = useApiAction();
  const body = { webhook_id: webhook.id };
  const enabled = webhook.status === 'enabled';

  async function test() {
    setDone(null);
    const result = await action.run(() => api.testWebhook({ body }));
    if (!result?.ok) return;
    setDone('Test event queued: see it in the delivery log below.');
    onDelivery();
  }

  async function rotate() {
    setDone(null);
    const result = await action.run(() => api.rotateWebhookSecret({ body }));
    if (result?.ok) onSecret(result.body.secret);
  }

  async function disable() {
    const result = await action.run(() => api.disableWebhook({ body }));
    setConfirming(false);
    if (result?.ok) await onChanged(`The webhook for ${webhook.url} is disabled.`);
  }

  return (
    <li className="card auth-item portal-item">
      <div className="auth-item-main">
        <h3 className="auth-item-title portal-item-title">
          <span className="portal-url">{webhook.url}</span>{' '}
          <span className={`badge ${enabled ? 'badge-ready' : 'badge-not_ready'}`}>{enabled ? 'Enabled' : 'Disabled'}</span>
        </h3>
        {webhook.description && <p>{webhook.description}</p>}
        <p className="hint">
          Events:{' '}
          {webhook.events.map((event, index) => (
            <span key={event}>
              {index > 0 && ', '}
              <DottedName name={event} />
            </span>
          ))}
          <br />
          Added <LocalTime iso={webhook.created_at} />
        </p>
      </div>
      {enabled && !confirming && (
        <div className="auth-actions portal-actions">
          <button type="button" className="auth-secondary" onClick={test} disabled={action.pending} aria-label={`Send test event to ${webhook.url}`}>
            Send test event
          </button>
          <button type="button" className="auth-secondary" onClick={rotate} disabled={action.pending} aria-label={`Rotate secret of ${webhook.url}`}>
            Rotate secret
          </button>
          <button
            type="button"
            className="auth-secondary auth-danger"
            onClick={() => setConfirming(true)}
            disabled={action.pending}
            aria-label={`Disable webhook for ${webhook.url}`}
          >
            Disable
          </button>
        </div>
      )}
      {confirming && (
        <RemoveConfirmation
          question={`Disable the webhook for ${webhook.url}?`}
          consequence="No more events are sent to it, including deliveries still waiting for a retry."
          confirmLabel="Disable webhook"
          pending={action.pending}
          onConfirm={disable}
          onCancel={() => setConfirming(false)}
        />
      )}
      <StatusNote message={done} />
      <ErrorAlert message={action.error} />
    </li>
  );
}
