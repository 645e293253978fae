'use client';

import { useState } from 'react';
import { callContract } from '../_components/api/call';
import { problemMessage } from '../_components/auth/api';
import { ErrorAlert } from '../_components/auth/error-alert';
import type { CallOutput } from '@/lib/contract/client';
import { CONTRACTS, type Contracts } from '@/lib/http/contracts';

type Consent = CallOutput<Contracts['listConsents']>['consents'][number];

/**
 * Applications allowed through OAuth consent; withdrawing one ends every token it holds. Mounted
 * outside the account context (withdrawing needs no step-up), so it calls with the page's CSRF token.
 */
export function ConsentsSection({ csrf, initial }: { csrf: string; initial: Consent[] | null }) {
  const [consents, setConsents] = useState(initial ?? []);
  const [pending, setPending] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function revoke(grantId: string) {
    setPending(grantId);
    setError(null);
    const result = await callContract(CONTRACTS.revokeConsent, { body: { grant_id: grantId } }, { csrf });
    if (result.ok) setConsents((list) => list.filter((c) => c.grant_id !== grantId));
    else setError(problemMessage(result.body));
    setPending(null);
  }

  return (
    <section aria-labelledby="consents-heading">
      <h2 id="consents-heading">Connected applications</h2>
      <p className="hint">Applications you allowed to access your account. Removing one signs it out everywhere and revokes the API keys it created for you.</p>
      {consents.length === 0 ? (
        <p>No application has access.</p>
      ) : (
        <ul className="stack" style={{ listStyle: 'none', padding: 0 }}>
          {consents.map((consent) => (
            <li key={consent.grant_id} className="card auth-actions">
              <span style={{ flex: '1 1 12rem' }}>
                <strong>{consent.client_name ?? 'An application'}</strong>
                <br />
                <span className="hint">{consent.scopes.join(', ')}</span>
              </span>
              <button type="button" className="auth-secondary" onClick={() => revoke(consent.grant_id)} disabled={pending !== null}>
                Remove access
              </button>
            </li>
          ))}
        </ul>
      )}
      <ErrorAlert message={error} />
    </section>
  );
}
