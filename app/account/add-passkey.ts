'use client';

import { startRegistration, type PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/browser';
import type { Api } from '../_components/api/use-api';
import type { ApiResult } from '../_components/auth/api';
import { ceremonyFailure } from '../_components/auth/passkey';
import type { CallInput } from '@/lib/contract/client';
import type { Contracts } from '@/lib/http/contracts';
import type { Passkey } from './passkey-row';

type Credential = CallInput<Contracts['addPasskey']>['body']['credential'];

/**
 * Adding a passkey to the account: registration options from the API, the browser's prompt, then the
 * API's verification. Both calls go through the section's `api`, so a stale step-up is asked for in
 * place (before the prompt, since the options need it too) and each answer is typed by its contract.
 * A dismissed or failed prompt comes back as a local problem; null: the step-up was cancelled.
 */
export async function addPasskey(api: Api): Promise<ApiResult<Passkey> | null> {
  const options = await api.addPasskeyOptions({});
  if (!options?.ok) return options;
  let credential: Credential;
  try {
    const registered = await startRegistration({ optionsJSON: options.body.options as unknown as PublicKeyCredentialCreationOptionsJSON });
    // The library's JSON is the shape the contract checks; copied, its interfaces become the plain objects the contract's open ones take.
    credential = { ...registered, response: { ...registered.response } };
  } catch (error) {
    return ceremonyFailure(error, 'register');
  }
  return api.addPasskey({ body: { challenge_id: options.body.challenge_id, credential } });
}
