'use client';

import type { Api } from '../_components/api/use-api';
import type { ApiResult } from '../_components/auth/api';
import { promptPasskey } from '../_components/auth/passkey';
import type { Passkey } from './passkey-row';

/**
 * Adding a passkey to the account: registration options from the API, the browser's prompt, then the
 * API's verification. Both calls go through the section's `api`, so a stale step-up is asked for in
 * place (before the prompt, since the options need it too) and each answer is typed by its contract.
 * A dismissed or failed prompt comes back as a local problem; null: the step-up was cancelled.
 */
export async function addPasskey(api: Api): Promise<ApiResult<Passkey> | null> {
  const options = await api.addPasskeyOptions({});
  if (!options?.ok) return options;
  const prompted = await promptPasskey('register', options.body.options);
  if ('failure' in prompted) return prompted.failure;
  return api.addPasskey({ body: { challenge_id: options.body.challenge_id, credential: prompted.credential } });
}
