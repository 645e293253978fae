'use client';

import { callApi, signOut } from '../_components/auth/api';
import { ErrorAlert } from '../_components/auth/error-alert';
import { LocalTime } from '../_components/auth/local-time';
import { useApiAction } from '../_components/auth/use-api-action';
import { useAccount } from './account-context';
import type { SessionItem } from './types';

const METHOD_NAMES: Record<string, string> = { pwd: 'password', otp: 'e-mail code', hwk: 'passkey', swk: 'passkey' };
const signedInWith = (amr: string[]) => amr.map((method) => METHOD_NAMES[method] ?? method).join(' and ');

export function SessionsSection({ sessions, refresh }: { sessions: SessionItem[] | null; refresh: () => Promise<void> }) {
  return (
    <section aria-labelledby="sessions-heading">
      <h2 id="sessions-heading">Sessions</h2>
      <p className="hint">Where you are signed in. Revoke any session you do not recognise.</p>
      {sessions === null ? (
        <p role="alert" className="error">
          Your sessions could not be loaded. Reload the page to try again.
        </p>
      ) : (
        <ul className="auth-list">
          {sessions.map((session) => (
            <SessionRow key={session.id} session={session} refresh={refresh} />
          ))}
        </ul>
      )}
    </section>
  );
}

function SessionRow({ session, refresh }: { session: SessionItem; refresh: () => Promise<void> }) {
  const { csrf } = useAccount();
  const { pending, error, run } = useApiAction();

  async function end() {
    if (session.current) {
      await run(() => signOut('/'), { navigatesOnSuccess: true });
      return;
    }
    const result = await run(() => callApi('/api/auth/sessions/revoke', { session_id: session.id }, { csrf }));
    // Gone already (expired meanwhile) or revoked now: either way the list is stale.
    if (result?.ok || result?.status === 404) await refresh();
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
