'use client';

import { useState } from 'react';
import { callApi, problemMessage } from '../../_components/auth/api';
import { ErrorAlert } from '../../_components/auth/error-alert';

/** Sends the decision to POST /oauth/authorize and follows the provider's redirect back to the app. */
export function ConsentDecision({ interactionId, csrfToken }: { interactionId: string; csrfToken: string }) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function send(decision: 'approve' | 'deny') {
    setPending(true);
    setError(null);
    const result = await callApi<{ redirect_to: string }>('/oauth/authorize', { interaction_id: interactionId, decision }, { csrf: csrfToken });
    if (result.ok) {
      window.location.assign(result.body.redirect_to);
      return;
    }
    setError(problemMessage(result.body));
    setPending(false);
  }

  return (
    <div className="stack">
      <div className="auth-actions">
        <button type="button" onClick={() => send('approve')} disabled={pending}>
          Allow
        </button>{' '}
        <button type="button" className="auth-secondary" onClick={() => send('deny')} disabled={pending}>
          Deny
        </button>
      </div>
      <ErrorAlert message={error} />
    </div>
  );
}
