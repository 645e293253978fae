'use client';

import {
  browserSupportsWebAuthn,
  startAuthentication,
  startRegistration,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import { useSyncExternalStore } from 'react';
import type { CallInput, CallOutput } from '@/lib/contract/client';
import type { AnyContract } from '@/lib/contract/wire';
import { CONTRACTS, type Contracts } from '@/lib/http/contracts';
import { callContract, type CallOptions } from '../api/call';
import { localProblem, type ApiResult } from './api';

/** Local problem codes for ceremonies that ended in the browser. */
export const PASSKEY_ABORTED = 'passkey_aborted';
export const PASSKEY_CANCELLED = 'passkey_cancelled';

const neverChanges = () => () => {};

/**
 * Whether this browser can use passkeys: null while rendering on the server (unknown), so passkey
 * controls appear only once the browser has answered and the server HTML never promises them.
 */
export function usePasskeySupport(): boolean | null {
  return useSyncExternalStore(neverChanges, browserSupportsWebAuthn, () => null);
}

/** The documented passkey sign-in (usernameless: the passkey names the account). */
export const PASSKEY_SIGN_IN = { options: CONTRACTS.signInPasskeyOptions, complete: CONTRACTS.signInWithPasskey } as const;

type Ceremony = 'register' | 'authenticate' | 'autofill';

/** The operations that start a ceremony: each answers `{ options, challenge_id }`. */
type OptionsContract = Contracts['signInPasskeyOptions' | 'stepUpPasskeyOptions' | 'enrollmentPasskeyOptions' | 'recoveryPasskeyOptions' | 'addPasskeyOptions'];

interface PasskeyCeremony<C extends AnyContract> {
  kind: Ceremony;
  options: OptionsContract;
  /** Takes `{ challenge_id, credential, ...extraBody }`. */
  complete: C;
  /** CSRF token and/or flow token headers, sent with both calls. */
  call?: CallOptions;
  extraBody?: Record<string, unknown>;
}

/**
 * One complete WebAuthn ceremony: fresh options from the API, the browser prompt, then the API's
 * verification, both calls by contract. Every outcome, including a dismissed prompt, comes back as an
 * ApiResult so callers (and the step-up retry) handle one shape.
 */
export async function runPasskeyCeremony<C extends AnyContract>(ceremony: PasskeyCeremony<C>): Promise<ApiResult<CallOutput<C>>> {
  const options = await callContract<OptionsContract>(ceremony.options, {}, ceremony.call);
  if (!options.ok) return options;
  const prompted = await promptPasskey(ceremony.kind, options.body.options);
  if ('failure' in prompted) return prompted.failure;
  const body = { challenge_id: options.body.challenge_id, credential: prompted.credential, ...ceremony.extraBody };
  return callContract(ceremony.complete, { body } as CallInput<C>, ceremony.call);
}

/** What every complete operation checks: the browser library's JSON for the new or used credential. */
export type PasskeyCredential = CallInput<Contracts['addPasskey']>['body']['credential'];

/**
 * The browser's half of a ceremony, for the `options` an options operation answered: the credential
 * to send to its complete operation, or the local problem the prompt ended in (dismissed, replaced,
 * unsupported). Shared by the ceremonies above and adding a passkey on the account page, whose two
 * calls go through its step-up-aware client instead.
 */
export async function promptPasskey(kind: Ceremony, options: unknown): Promise<{ credential: PasskeyCredential } | { failure: ApiResult<never> }> {
  try {
    if (kind === 'register') {
      const registered = await startRegistration({ optionsJSON: options as PublicKeyCredentialCreationOptionsJSON });
      // Copied, the library's interfaces become the plain objects the contracts' open shapes take.
      return { credential: { ...registered, response: { ...registered.response } } };
    }
    const used = await startAuthentication({ optionsJSON: options as PublicKeyCredentialRequestOptionsJSON, useBrowserAutofill: kind === 'autofill' });
    return { credential: { ...used, response: { ...used.response } } };
  } catch (error) {
    return { failure: ceremonyFailure(error, kind) };
  }
}

function ceremonyFailure(error: unknown, kind: Ceremony): ApiResult<never> {
  const name = error instanceof Error ? error.name : '';
  // Another ceremony replaced this one (e.g. the passkey button superseded autofill): not a failure.
  if (name === 'AbortError') return localProblem('The passkey request was replaced by another one.', PASSKEY_ABORTED);
  if (name === 'NotAllowedError') {
    return localProblem('The passkey request was cancelled or timed out. You can try again or use another way.', PASSKEY_CANCELLED);
  }
  if (name === 'InvalidStateError' && kind === 'register') {
    return localProblem('This device already has a passkey for this account.', 'passkey_exists');
  }
  return localProblem('The passkey could not be used on this device. You can try again or use another way.', 'passkey_failed');
}
