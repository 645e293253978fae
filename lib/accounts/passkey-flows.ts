/**
 * Passkey use cases: enrollment, sign-in, step-up and recovery (the spec's), plus managing one's own
 * passkeys while signed in (extensions). Ceremony mechanics live in webauthn.ts.
 */
import { randomUUID } from 'node:crypto';
import { recordAudit } from '@/lib/audit';
import { ANONYMOUS, type Actor, type EnrollmentActor, type RecoveryActor, type SessionActor } from '@/lib/contract/actor';
import { serviceError } from '@/lib/contract/errors';
import { getDb, inTransaction, type Executor } from '@/lib/db';
import { emitEvent } from '@/lib/events';
import { markStepUp } from '@/lib/sessions';
import { assertVerified, createAccount, enrollmentOf } from './enrollment';
import { accountMails, deliver } from './mails';
import { newPasskeyName } from './passkey-name';
import { countUserPasskeys, deleteUserPasskey, insertPasskey, listUserPasskeys, renameUserPasskey, type PasskeyRow } from './passkeys.repo';
import { endLiveChallenges } from './live-challenges';
import { findPasswordCredential } from './passwords.repo';
import { assertRecoveryVerified, finishRecovery, recoveryOf } from './recovery';
import { startSignedInSession } from './session-start';
import { findUserById, lockUser } from '@/lib/users';
import { authenticationOptions, registrationOptions, verifyAssertion, verifyRegistration, type NewCredential } from './webauthn';

export interface CeremonyInput {
  challengeId: string;
  credential: unknown;
}

export function passkeyView(p: PasskeyRow) {
  return {
    id: p.id,
    name: p.name,
    device_type: p.deviceType,
    backed_up: p.backedUp,
    created_at: p.createdAt.toISOString(),
    last_used_at: p.lastUsedAt?.toISOString() ?? null,
  };
}

/** `name`: the person's choice; without one the passkey is named after its provider (or device) and day. */
async function savePasskey(
  tx: Executor,
  credential: NewCredential,
  input: { userId: string; name?: string; device: string; now: Date; actor: Actor; requestId: string },
) {
  const id = randomUUID();
  const { userId: _userId, aaguid, ...stored } = credential;
  const name = input.name ?? newPasskeyName({ aaguid, device: input.device, now: input.now });
  if (!(await insertPasskey(tx, { id, userId: input.userId, ...stored, name, createdAt: input.now }))) {
    throw serviceError('conflict', 'This passkey is already registered.');
  }
  await emitEvent(tx, 'identity.passkey.added', { user_id: input.userId, passkey_id: id }, { userId: input.userId }, input.now);
  await recordAudit(tx, {
    action: 'passkey.added',
    outcome: 'success',
    actor: input.actor,
    subject: { type: 'passkey', id },
    requestId: input.requestId,
    at: input.now,
  });
  return id;
}

// Enrollment

export async function enrollmentPasskeyOptions(actor: EnrollmentActor, now: Date) {
  const row = await enrollmentOf(actor);
  assertVerified(row);
  // The account id is chosen now (it is the WebAuthn user handle) and used when the account is created.
  return registrationOptions(
    await getDb(),
    { purpose: 'enroll', subject: row.id, userId: randomUUID(), email: row.email, displayName: null, exclude: [] },
    now,
  );
}

export async function completePasskeyEnrollment(
  actor: EnrollmentActor,
  input: CeremonyInput & { displayName?: string; device: string },
  now: Date,
  requestId: string,
) {
  const row = await enrollmentOf(actor);
  assertVerified(row);
  const credential = await verifyRegistration({ challengeId: input.challengeId, purpose: 'enroll', subject: row.id, credential: input.credential }, now);
  const user = await inTransaction(async (tx) => {
    const created = await createAccount(tx, row, { userId: credential.userId, displayName: input.displayName, now, method: 'passkey', requestId, actor });
    await savePasskey(tx, credential, { userId: created.id, device: input.device, now, actor, requestId });
    return created;
  });
  return { user_id: user.id };
}

// Sign-in

export async function signInPasskeyOptions(now: Date) {
  return authenticationOptions(await getDb(), { purpose: 'signin', subject: null, allow: [] }, now);
}

export async function signInWithPasskey(
  input: CeremonyInput & { device: string; binding: string; now: Date; requestId: string; presented: SessionActor | null },
) {
  let passkey: PasskeyRow;
  try {
    passkey = await verifyAssertion({ challengeId: input.challengeId, purpose: 'signin', subject: null, credential: input.credential }, input.now);
  } catch (error) {
    await recordAudit(await getDb(), { action: 'signin.passkey', outcome: 'failure', actor: ANONYMOUS, requestId: input.requestId, at: input.now });
    throw error;
  }
  return inTransaction(async (tx) => {
    const user = await findUserById(tx, passkey.userId);
    if (!user) throw serviceError('invalid_credentials', 'The passkey was not accepted.');
    return startSignedInSession(tx, 'signin.passkey', {
      user,
      amr: ['hwk'],
      device: input.device,
      binding: input.binding,
      now: input.now,
      requestId: input.requestId,
      stepUpMethod: 'passkey',
      presented: input.presented,
    });
  });
}

// Step-up

export async function stepUpPasskeyOptions(actor: SessionActor, now: Date) {
  const db = await getDb();
  const own = await listUserPasskeys(db, actor.userId);
  if (own.length === 0) throw serviceError('conflict', 'No passkey is registered; step up with your password.');
  return authenticationOptions(db, { purpose: 'step_up', subject: actor.sessionId, allow: own }, now);
}

export async function stepUpWithPasskey(actor: SessionActor, input: CeremonyInput, now: Date, requestId: string) {
  try {
    const passkey = await verifyAssertion({ challengeId: input.challengeId, purpose: 'step_up', subject: actor.sessionId, credential: input.credential }, now);
    if (passkey.userId !== actor.userId) throw serviceError('invalid_credentials', 'The passkey was not accepted.');
  } catch (error) {
    await recordAudit(await getDb(), { action: 'step_up.passkey', outcome: 'failure', actor, requestId, at: now });
    throw error;
  }
  return inTransaction(async (tx) => {
    const stepUp = await markStepUp(tx, actor, 'passkey', now);
    await recordAudit(tx, { action: 'step_up.passkey', outcome: 'success', actor, requestId, at: now });
    return stepUp;
  });
}

// Recovery

/** Options for one more passkey on an existing account: its current passkeys are excluded. */
async function optionsForExistingUser(purpose: 'recovery' | 'add', subject: string, userId: string, now: Date, missing: () => never) {
  const db = await getDb();
  const user = await findUserById(db, userId);
  if (!user) return missing();
  const exclude = await listUserPasskeys(db, user.id);
  return registrationOptions(db, { purpose, subject, userId: user.id, email: user.email, displayName: user.displayName, exclude }, now);
}

export async function recoveryPasskeyOptions(actor: RecoveryActor, now: Date) {
  const row = await recoveryOf(actor);
  assertRecoveryVerified(row);
  return optionsForExistingUser('recovery', row.id, row.userId!, now, () => {
    throw serviceError('conflict', 'The account no longer exists.');
  });
}

export async function completePasskeyRecovery(actor: RecoveryActor, input: CeremonyInput & { device: string }, now: Date, requestId: string) {
  const row = await recoveryOf(actor);
  assertRecoveryVerified(row);
  const credential = await verifyRegistration({ challengeId: input.challengeId, purpose: 'recovery', subject: row.id, credential: input.credential }, now);
  const user = await inTransaction(async (tx) => {
    const recovered = await finishRecovery(tx, row, { actor, method: 'passkey', now, requestId });
    await savePasskey(tx, credential, { userId: recovered.id, device: input.device, now, actor, requestId });
    return recovered;
  });
  await deliver(accountMails.recovered(user.email, 'a new passkey')).catch(() => undefined);
  return { user_id: user.id };
}

// Managing one's own passkeys (extensions; all behind step-up)

export async function listOwnPasskeys(actor: SessionActor) {
  return { passkeys: (await listUserPasskeys(await getDb(), actor.userId)).map(passkeyView) };
}

export async function addPasskeyOptions(actor: SessionActor, now: Date) {
  return optionsForExistingUser('add', actor.sessionId, actor.userId, now, () => {
    throw serviceError('unauthenticated', 'Sign in first.');
  });
}

export async function addPasskey(actor: SessionActor, input: CeremonyInput & { name?: string; device: string }, now: Date, requestId: string) {
  const credential = await verifyRegistration({ challengeId: input.challengeId, purpose: 'add', subject: actor.sessionId, credential: input.credential }, now);
  if (credential.userId !== actor.userId) throw serviceError('forbidden', 'The passkey was created for another account.');
  const id = await inTransaction((tx) => savePasskey(tx, credential, { userId: actor.userId, name: input.name, device: input.device, now, actor, requestId }));
  const created = (await listUserPasskeys(await getDb(), actor.userId)).find((p) => p.id === id)!;
  return passkeyView(created);
}

export async function renamePasskey(actor: SessionActor, passkeyId: string, name: string) {
  const renamed = await renameUserPasskey(await getDb(), passkeyId, actor.userId, name);
  if (!renamed) throw serviceError('not_found', 'You have no passkey with this id.');
  return passkeyView(renamed);
}

/**
 * Removing the last passkey of an account without a password would leave no credential: refused. The
 * account's row is locked first, so two removals at once cannot both see "one more left". A removal
 * (a lost or stolen device) ends the account's live challenges, like a password change.
 */
export async function removePasskey(actor: SessionActor, passkeyId: string, now: Date, requestId: string) {
  await inTransaction(async (tx) => {
    if (!(await lockUser(tx, actor.userId))) throw serviceError('unauthenticated', 'Sign in first.');
    const remaining = await countUserPasskeys(tx, actor.userId);
    const hasPassword = (await findPasswordCredential(tx, actor.userId)) !== null;
    if (remaining <= 1 && !hasPassword)
      throw serviceError('conflict', 'This is your only way to sign in with a credential; add a password or another passkey first.');
    if (!(await deleteUserPasskey(tx, passkeyId, actor.userId))) throw serviceError('not_found', 'You have no passkey with this id.');
    await endLiveChallenges(tx, actor.userId, now);
    await emitEvent(tx, 'identity.passkey.removed', { user_id: actor.userId, passkey_id: passkeyId }, { userId: actor.userId }, now);
    await recordAudit(tx, { action: 'passkey.removed', outcome: 'success', actor, subject: { type: 'passkey', id: passkeyId }, requestId, at: now });
  });
  return { removed: true as const };
}
