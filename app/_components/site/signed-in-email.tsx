'use client';

import { createContext, useContext, type ReactNode } from 'react';

const SignedInEmail = createContext<string | null>(null);

/**
 * The signed-in person's e-mail address, read once by the root layout from the session it already
 * resolves for the header. Password forms that have no e-mail field of their own (step-up, password
 * change) name the account with it for password managers (see AccountUsername).
 */
export function SignedInEmailProvider({ email, children }: { email: string | null; children: ReactNode }) {
  return <SignedInEmail value={email}>{children}</SignedInEmail>;
}

export function useSignedInEmail(): string | null {
  return useContext(SignedInEmail);
}
