'use client';

import { useSignedInEmail } from '../site/signed-in-email';

/**
 * The account a password form belongs to, for password managers: Chromium (and others) look for a
 * field with autocomplete="username" next to a new-password or current-password field to know which
 * saved entry to fill or update. The field is hidden and read-only, named so no submit handler reads
 * it. `email` overrides the signed-in address (sign-up and recovery know it before any session).
 */
export function AccountUsername({ email }: { email?: string }) {
  const signedIn = useSignedInEmail();
  const value = email ?? signedIn;
  if (!value) return null;
  return <input type="email" name="account_username" autoComplete="username" value={value} readOnly hidden />;
}
