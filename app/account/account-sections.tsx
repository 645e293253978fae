'use client';

import { useCallback, useMemo, useState } from 'react';
import { callApi } from '../_components/auth/api';
import { AccountContext } from '@/app/_components/account-context';
import { PasskeysSection } from './passkeys-section';
import { PasswordSection } from './password-section';
import { SessionsSection } from './sessions-section';
import type { PasskeyItem, SessionItem } from './types';

const SIGN_IN_AGAIN = '/sign-in?return_to=/account';

/**
 * Owns the two lists so that one section's action can refresh another's (a password change signs
 * out other sessions; the passkey list decides whether passkey step-up is offered).
 */
export function AccountSections({
  csrf,
  initialSessions,
  initialPasskeys,
  hasPassword,
}: {
  csrf: string;
  initialSessions: SessionItem[] | null;
  initialPasskeys: PasskeyItem[] | null;
  hasPassword: boolean;
}) {
  const [sessions, setSessions] = useState(initialSessions);
  const [passkeys, setPasskeys] = useState(initialPasskeys);

  const refreshSessions = useCallback(async () => {
    const result = await callApi<{ sessions: SessionItem[] }>('/api/auth/sessions');
    if (result.ok) setSessions(result.body.sessions);
    // This session ended meanwhile (revoked elsewhere, expired): the page has nothing left to show.
    else if (result.status === 401) window.location.assign(SIGN_IN_AGAIN);
  }, []);

  const refreshPasskeys = useCallback(async () => {
    const result = await callApi<{ passkeys: PasskeyItem[] }>('/api/auth/passkeys');
    if (result.ok) setPasskeys(result.body.passkeys);
    else if (result.status === 401) window.location.assign(SIGN_IN_AGAIN);
  }, []);

  const context = useMemo(() => ({ csrf, hasPasskeys: (passkeys?.length ?? 0) > 0 }), [csrf, passkeys]);

  return (
    <AccountContext value={context}>
      <SessionsSection sessions={sessions} refresh={refreshSessions} />
      <PasskeysSection passkeys={passkeys} refresh={refreshPasskeys} />
      <PasswordSection hasPassword={hasPassword} onChanged={refreshSessions} />
    </AccountContext>
  );
}
