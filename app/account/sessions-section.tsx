'use client';

import { useState } from 'react';
import { useApi, type Api } from '../_components/api/use-api';
import { signOut } from '../_components/auth/sign-out';
import { ErrorAlert, StatusNote } from '../_components/auth/error-alert';
import { LocalTime } from '../_components/auth/local-time';
import { useApiAction } from '../_components/auth/use-api-action';
import type { CallOutput } from '@/lib/contract/client';
import type { Contracts } from '@/lib/http/contracts';

export type Session = CallOutput<Contracts['listSessions']>['sessions'][number];

const METHOD_NAMES: Record<string, string> = { pwd: 'password', otp: 'e-mail code', hwk: 'passkey', swk: 'passkey' };
const signedInWith = (amr: string[]) => amr.map((method) => METHOD_NAMES[method] ?? method).join(' and ');

/**
 * Ending a session other than this one (one, or all of them) needs a recent step-up: the API answers
 * step_up_required and the section's "Confirm it's you" panel takes over, then the action continues.
 * Signing out of this session never asks.
 */
export function SessionsSection({ sessions, refresh }: { sessions: Session[] | null; refresh: () => Promise<void> }) {
  const { api, panel } = useApi();
  const others = sessions?.filter((session) => !session.current).length ?? 0;
  const [note, setNote] = useState<string | null>(null);

  async function ended(message: string) {
    setNote(message);
    await refresh();
  }

  return (
    <section aria-labelledby="sessions-heading">
      <h2 id="sessions-heading">Sessions</h2>
      <p className="hint">Where you are signed in. Revoke any session you do not recognise; ending other sessions asks you to confirm it&rsquo;s you.</p>
      {sessions === null ? (
        <p role="alert" className="error">
          Your sessions could not be loaded. Reload the page to try again.
        </p>
      ) : (
        <ul className="auth-list">
          {sessions.map((session) => (
            <SessionRow key={session.id} session={session} api={api} onRevoked={() => ended(`Signed out “${session.device}”.`)} refresh={refresh} />
          ))}
        </ul>
      )}
      {others > 0 && (
        <SignOutElsewhere api={api} onDone={(count) => ended(count === 1 ? 'Signed out 1 other session.' : `Signed out ${count} other sessions.`)} />
      )}
      <StatusNote message={note} />
      {panel}
    </section>
  );
}

function SignOutElsewhere({ api, onDone }: { api: Api; onDone: (count: number) => Promise<void> }) {
  const { pending, error, run } = useApiAction();

  async function signOutOthers() {
    const result = await run(() => api.revokeOtherSessions({}));
    if (result?.ok) await onDone(result.body.revoked);
  }

  return (
    <div className="stack">
      <div className="auth-actions">
        <button type="button" className="auth-secondary auth-danger" onClick={signOutOthers} disabled={pending}>
          Sign out everywhere else
        </button>
      </div>
      <ErrorAlert message={error} />
    </div>
  );
}

function SessionRow({ session, api, onRevoked, refresh }: { session: Session; api: Api; onRevoked: () => Promise<void>; refresh: () => Promise<void> }) {
  const { pending, error, run } = useApiAction();

  async function end() {
    if (session.current) {
      await run(() => signOut('/'), { navigatesOnSuccess: true });
      return;
    }
    const result = await run(() => api.revokeSession({ body: { session_id: session.id } }));
    if (result?.ok) await onRevoked();
    // Gone already (expired meanwhile): the list is stale.
    else if (result?.status === 404) await refresh();
  }

  return (
    <li className="card auth-item">
      <div className="auth-item-main">
        <p className="auth-item-title">
          <strong>{session.device}</strong> {session.current && <span className="badge badge-ready">This session</span>}
        </p>
        <p className="hint">
          Signed in <LocalTime iso={session.authenticated_at} />
          {session.amr.length > 0 && <> with {signedInWith(session.amr)}</>}
          <br />
          Last active <LocalTime iso={session.last_seen_at} />
          <br />
          Expires <LocalTime iso={session.expires_at} />
        </p>
      </div>
      <div className="auth-actions">
        <button type="button" className={session.current ? undefined : 'auth-secondary'} onClick={end} disabled={pending}>
          {session.current ? 'Sign out' : 'Revoke'}
        </button>
      </div>
      <ErrorAlert message={error} />
    </li>
  );
}
