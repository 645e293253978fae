import { getDb } from '@/lib/db';
import { passkeyView } from './passkey-flows';
import { listUserPasskeys } from './passkeys.repo';
import { findPasswordCredential } from './passwords.repo';

/** What a person can sign in with: passkey metadata and whether a password is set (never a proof). */
export async function authenticatorsOf(userId: string) {
  const db = await getDb();
  const [passkeys, password] = await Promise.all([listUserPasskeys(db, userId), findPasswordCredential(db, userId)]);
  return {
    passkeys: passkeys.map(passkeyView),
    password: password ? { set: true, updated_at: password.updatedAt.toISOString() } : { set: false, updated_at: null },
  };
}
