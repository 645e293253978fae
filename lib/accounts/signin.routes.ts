import { bindResource, type AnyOperation } from '@/lib/contract/operation';
import { signedIn, steppedUp } from './session-answers';
import { completeEmailCodeSignIn, signInWithPassword, startEmailCodeSignIn, stepUpWithPassword } from './signin';
import * as contract from './signin.contract';

export const signInOperations: AnyOperation[] = [
  bindResource(contract.signInWithPassword, async ({ body, device, deviceBinding, now, requestId, presentedSession }) => {
    const issued = await signInWithPassword({
      email: body.email,
      password: body.password,
      device,
      binding: deviceBinding(),
      now,
      requestId,
      presented: presentedSession,
    });
    return signedIn(issued);
  }),
  bindResource(contract.startEmailCodeSignIn, ({ body, now, requestId }) => startEmailCodeSignIn(body.email, now, requestId)),
  bindResource(contract.completeEmailCodeSignIn, async ({ body, device, deviceBinding, now, requestId, presentedSession }) => {
    const issued = await completeEmailCodeSignIn({
      challengeId: body.challenge_id,
      code: body.code,
      device,
      binding: deviceBinding(),
      now,
      requestId,
      presented: presentedSession,
    });
    return signedIn(issued);
  }),
  bindResource(contract.stepUpWithPassword, async ({ actor, body, now, requestId }) =>
    steppedUp(await stepUpWithPassword(actor, body.password, now, requestId)),
  ),
];
