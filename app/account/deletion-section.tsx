'use client';

import { useState, type FormEvent } from 'react';
import { useApi } from '../_components/api/use-api';
import { ErrorAlert, StatusNote } from '../_components/auth/error-alert';
import { LocalTime } from '../_components/auth/local-time';
import { fieldValue, useApiAction } from '../_components/auth/use-api-action';
import { TextField } from '../_components/form-fields';
import type { CallOutput } from '@/lib/contract/client';
import type { Contracts } from '@/lib/http/contracts';

type DeletionState = CallOutput<Contracts['getDeletionRequest']>;

const ASK_WORD = 'DELETE_MY_ACCOUNT';
const CANCEL_WORD = 'CANCEL_DELETION';

/**
 * Deleting the account: asking (the confirmation word, a recent step-up: a passkey when the account
 * has one) starts a review, nothing is deleted yet; while it waits, the person can cancel it here.
 */
export function DeletionSection({ initial }: { initial: DeletionState | null }) {
  const { api, panel } = useApi();
  const [state, setState] = useState(initial);
  const { pending, error, fieldErrors, run } = useApiAction({ fields: ['confirmation'] });
  const [done, setDone] = useState<string | null>(null);
  const request = state?.deletion_request;
  const waiting = request?.status === 'pending';

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setDone(null);
    const form = event.currentTarget;
    const confirmation = fieldValue(form, 'confirmation');
    const result = waiting
      ? await run(() => api.cancelAccountDeletion({ body: { confirmation: confirmation as typeof CANCEL_WORD } }))
      : await run(() => api.requestAccountDeletion({ body: { confirmation: confirmation as typeof ASK_WORD } }));
    if (!result?.ok) return;
    form.reset();
    setState(result.body);
    setDone(
      waiting ? 'Your deletion request was cancelled. Your account stays as it is.' : 'Your deletion request was received. We sent you an e-mail about it.',
    );
  }

  return (
    <section aria-labelledby="deletion-heading">
      <h2 id="deletion-heading">Account deletion</h2>
      <form className="stack card auth-card" onSubmit={submit} aria-label={waiting ? 'Cancel your deletion request' : 'Request account deletion'}>
        {waiting ? (
          <p>
            You asked on <LocalTime iso={request!.requested_at} /> for your account to be deleted. It waits for review: nothing is deleted yet, and you can
            cancel it until then.
          </p>
        ) : (
          <p className="hint">
            Deleting your account erases your profile, passkeys, password, sessions, memberships, applications, API keys and webhooks. Nothing happens at once:
            the request waits for review, and you can cancel it until then.
          </p>
        )}
        {state?.blocked_by.length ? (
          <div role="note">
            <p>First, another owner must be named (or the organization deleted) for:</p>
            <ul>
              {state.blocked_by.map((blocker) => (
                <li key={blocker.organization_id}>{blocker.organization_name}: you are its only owner.</li>
              ))}
            </ul>
          </div>
        ) : null}
        <TextField
          label={`Type ${waiting ? CANCEL_WORD : ASK_WORD} to confirm`}
          name="confirmation"
          required
          maxLength={40}
          spellCheck={false}
          error={fieldErrors.confirmation}
        />
        <ErrorAlert message={error} />
        <StatusNote message={done} />
        <div>
          <button type="submit" className={waiting ? undefined : 'auth-secondary auth-danger'} disabled={pending}>
            {waiting ? 'Cancel deletion request' : 'Request account deletion'}
          </button>
        </div>
      </form>
      {panel}
    </section>
  );
}
