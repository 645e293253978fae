import { bindResource, type AnyOperation } from '@/lib/contract/operation';
import {
  addPasskey,
  addPasskeyOptions,
  completePasskeyEnrollment,
  completePasskeyRecovery,
  enrollmentPasskeyOptions,
  listOwnPasskeys,
  recoveryPasskeyOptions,
  removePasskey,
  renamePasskey,
  signInPasskeyOptions,
  signInWithPasskey,
  stepUpPasskeyOptions,
  stepUpWithPasskey,
} from './passkey-flows';
import * as contract from './passkeys.contract';
import { signedIn, steppedUp } from './session-answers';

export const passkeyOperations: AnyOperation[] = [
  bindResource(contract.enrollmentPasskeyOptions, ({ actor, now }) => enrollmentPasskeyOptions(actor, now)),
  bindResource(contract.completePasskeyEnrollment, ({ actor, body, device, now, requestId }) =>
    completePasskeyEnrollment(actor, { challengeId: body.challenge_id, credential: body.credential, displayName: body.display_name, device }, now, requestId),
  ),
  bindResource(contract.signInPasskeyOptions, ({ now }) => signInPasskeyOptions(now)),
  bindResource(contract.signInWithPasskey, async ({ body, device, deviceBinding, now, requestId, presentedSession }) => {
    const issued = await signInWithPasskey({
      challengeId: body.challenge_id,
      credential: body.credential,
      device,
      binding: deviceBinding(),
      now,
      requestId,
      presented: presentedSession,
    });
    return signedIn(issued);
  }),
  bindResource(contract.stepUpPasskeyOptions, ({ actor, now }) => stepUpPasskeyOptions(actor, now)),
  bindResource(contract.stepUpWithPasskey, async ({ actor, body, now, requestId }) =>
    steppedUp(await stepUpWithPasskey(actor, { challengeId: body.challenge_id, credential: body.credential }, now, requestId)),
  ),
  bindResource(contract.recoveryPasskeyOptions, ({ actor, now }) => recoveryPasskeyOptions(actor, now)),
  bindResource(contract.completePasskeyRecovery, ({ actor, body, device, now, requestId }) =>
    completePasskeyRecovery(actor, { challengeId: body.challenge_id, credential: body.credential, device }, now, requestId),
  ),
  bindResource(contract.listOwnPasskeys, ({ actor }) => listOwnPasskeys(actor)),
  bindResource(contract.addPasskeyOptions, ({ actor, now }) => addPasskeyOptions(actor, now)),
  bindResource(contract.addPasskey, ({ actor, body, device, now, requestId }) =>
    addPasskey(actor, { challengeId: body.challenge_id, credential: body.credential, name: body.name, device }, now, requestId),
  ),
  bindResource(contract.renamePasskey, ({ actor, params, body }) => renamePasskey(actor, params.passkey_id, body.name)),
  bindResource(contract.removePasskey, ({ actor, params, now, requestId }) => removePasskey(actor, params.passkey_id, now, requestId)),
];
