'use client';

import { useCallback, useMemo, useState, type ComponentProps } from 'react';
import { callContract } from '../_components/api/call';
import { leftForSignIn } from '../_components/auth/signed-in-api';
import { AccountContext } from '@/app/_components/account-context';
import { CONTRACTS } from '@/lib/http/contracts';
import type { Passkey } from './passkey-row';
import { PasskeysSection } from './passkeys-section';
import { PasswordSection } from './password-section';
import { DeletionSection } from './deletion-section';
import { SessionsSection, type Session } from './sessions-section';

/**
 * Owns the two lists so that one section's action can refresh another's (a password change signs
 * out other sessions; the passkey list decides whether passkey step-up is offered).
 */
export function AccountSections({
  csrf,
  initialSessions,
  initialPasskeys,
  hasPassword,
  initialDeletion,
}: {
  csrf: string;
  initialSessions: Session[] | null;
  initialPasskeys: Passkey[] | null;
  hasPassword: boolean;
  initialDeletion: ComponentProps<typeof DeletionSection>['initial'];
}) {
  const [sessions, setSessions] = useState(initialSessions);
  const [passkeys, setPasskeys] = useState(initialPasskeys);

  // The reads are made here, above the context the sections' `api` needs; neither asks for a step-up.
  // A 401 means this session ended meanwhile (revoked elsewhere, expired): the page has nothing left to show.
  const refreshSessions = useCallback(async () => {
    const result = await callContract(CONTRACTS.listSessions, {});
    if (result.ok) setSessions(result.body.sessions);
    else leftForSignIn(result);
  }, []);

  const refreshPasskeys = useCallback(async () => {
    const result = await callContract(CONTRACTS.listOwnPasskeys, {});
    if (result.ok) setPasskeys(result.body.passkeys);
    else leftForSignIn(result);
  }, []);

  const context = useMemo(() => ({ csrf, hasPasskeys: (passkeys?.length ?? 0) > 0 }), [csrf, passkeys]);

  return (
    <AccountContext value={context}>
      <SessionsSection sessions={sessions} refresh={refreshSessions} />
      <PasskeysSection passkeys={passkeys} refresh={refreshPasskeys} />
      <PasswordSection hasPassword={hasPassword} onChanged={refreshSessions} />
      <DeletionSection initial={initialDeletion} />
    </AccountContext>
  );
}
