/**
 * What a password must be (NIST SP 800-63B / ASVS V6): 8-128 characters after NFC normalisation, no
 * composition rules, not one of the most common passwords (an offline list, never a network call),
 * and not built from context-specific words (password-context.ts).
 */
import { serviceError } from '@/lib/contract/errors';
import { isBuiltFromContext } from './password-context';

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;

async function isCommon(password: string): Promise<boolean> {
  // Loaded on first use: decoding the list costs a few milliseconds once per process.
  const { default: commonList } = await import('fxa-common-password-list');
  return commonList.test(password) || commonList.test(password.toLowerCase());
}

/**
 * Returns the normalised password for the account at `email`, or throws 400 with a reason a person can
 * act on, pointing at the request's field (`password`, or `new_password` when changing it).
 */
export async function acceptablePassword(raw: string, context: { email: string; field?: string }): Promise<string> {
  const path = `body.${context.field ?? 'password'}`;
  const weak = (message: string): never => {
    throw serviceError('weak_password', message, { extras: { errors: [{ path, message }] } });
  };
  const password = raw.normalize('NFC');
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) weak(`Use at least ${PASSWORD_MIN_LENGTH} characters (15 or more is better).`);
  if (length > PASSWORD_MAX_LENGTH) weak(`Use at most ${PASSWORD_MAX_LENGTH} characters.`);
  if (await isCommon(password)) weak('This password is too common; choose one that is hard to guess.');
  if (isBuiltFromContext(password, context.email)) weak('Do not build the password from your e-mail address or the name of this service.');
  return password;
}
