import type { Executor } from '@/lib/db';
import { deleteCredentialsOf, deleteUserRow } from './erasure.repo';

/** The accounts context's part of an erasure, last of all: credentials, challenges, then the account itself. */
export async function eraseAccount(tx: Executor, person: { userId: string; email: string }): Promise<void> {
  await deleteCredentialsOf(tx, person.userId, person.email);
  await deleteUserRow(tx, person.userId);
}
