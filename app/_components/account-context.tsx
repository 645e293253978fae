'use client';

import { createContext, useContext } from 'react';

/** What every account section needs: the CSRF token for mutations and whether passkey step-up is possible. */
export interface AccountContextValue {
  csrf: string;
  hasPasskeys: boolean;
}

export const AccountContext = createContext<AccountContextValue | null>(null);

export function useAccount(): AccountContextValue {
  const value = useContext(AccountContext);
  if (!value) throw new Error('useAccount() outside <AccountContext>');
  return value;
}
