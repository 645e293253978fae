'use client';

import { useState, type FormEvent } from 'react';
import { requestOf } from '@/lib/contract/client';
import { CONTRACTS } from '@/lib/http/contracts';
import { callContract } from '../_components/api/call';
import { EmailField } from '../_components/auth/email-field';
import { ErrorAlert } from '../_components/auth/error-alert';
import { fieldValue, useApiAction } from '../_components/auth/use-api-action';

type Found = { kind: 'connection'; displayName: string; href: string } | { kind: 'none'; email: string };

/**
 * Work accounts: the person gives their e-mail first; when their organization signs its people in
 * through its own identity provider, they continue there (a plain link: the browser navigates to the
 * start, which sends it on to the provider).
 */
export function FederationSignIn() {
  const [found, setFound] = useState<Found | null>(null);
  const { pending, error, fieldErrors, run } = useApiAction({ fields: ['email'] });

  async function discover(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const email = fieldValue(event.currentTarget, 'email');
    const result = await run(() => callContract(CONTRACTS.discoverFederation, { query: { email } }));
    if (!result?.ok) return;
    const { connection_id: connectionId, display_name: displayName } = result.body;
    setFound(
      connectionId
        ? {
            kind: 'connection',
            displayName: displayName ?? 'your organization',
            href: requestOf(CONTRACTS.startOidcFederation, { query: { connection_id: connectionId } }).url,
          }
        : { kind: 'none', email },
    );
  }

  return (
    <section className="card auth-card">
      <h2>With your work account</h2>
      {found?.kind === 'connection' ? (
        <div className="stack">
          <p className="hint">Your organization signs you in with its own identity provider.</p>
          <a className="auth-button-link" href={found.href}>
            Continue with {found.displayName}
          </a>
          <button type="button" className="auth-link-button" onClick={() => setFound(null)}>
            Use a different address
          </button>
        </div>
      ) : (
        <form className="stack" onSubmit={discover}>
          <p className="hint">If your organization uses single sign-on, continue with your work e-mail.</p>
          <EmailField label="Work e-mail address" error={fieldErrors.email} defaultValue={found?.kind === 'none' ? found.email : undefined} />
          {found?.kind === 'none' ? (
            <p role="status" className="auth-status">
              Single sign-on is not set up for this address. Use a passkey, your password or an e-mail code.
            </p>
          ) : null}
          <ErrorAlert message={error} />
          <button type="submit" disabled={pending}>
            Continue
          </button>
        </form>
      )}
    </section>
  );
}
