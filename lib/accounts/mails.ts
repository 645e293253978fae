/**
 * Account mails. Codes appear only in the message body; nothing here is logged. Every start sends
 * exactly one mail, whether or not an account exists, so neither responses nor timing reveal it.
 */
import { getConfig, SERVICE_NAME } from '@/lib/config';
import { serviceError } from '@/lib/contract/errors';
import { sendMail, type MailMessage } from '@/lib/mail';

const minutes = (seconds: number) => Math.round(seconds / 60);
const signature = () => `\n\n-- \n${SERVICE_NAME} at ${getConfig().baseUrl}\nIf you did not ask for this, you can ignore this message.`;

export const accountMails = {
  enrollmentCode: (to: string, code: string): MailMessage => ({
    to,
    subject: `${code} is your verification code`,
    text: `Your verification code is ${code}. It expires in ${minutes(getConfig().ttl.verificationCode)} minutes.${signature()}`,
  }),
  alreadyHaveAccount: (to: string): MailMessage => ({
    to,
    subject: 'You already have an account',
    text: `Someone (perhaps you) tried to create an account with this address, but you already have one. Sign in at ${getConfig().baseUrl}/sign-in, or recover it at ${getConfig().baseUrl}/recovery.${signature()}`,
  }),
  signInCode: (to: string, code: string): MailMessage => ({
    to,
    subject: `${code} is your sign-in code`,
    text: `Your sign-in code is ${code}. It expires in ${minutes(getConfig().ttl.verificationCode)} minutes and works once.${signature()}`,
  }),
  noAccount: (to: string, what: 'sign in' | 'recover an account'): MailMessage => ({
    to,
    subject: 'No account uses this address',
    text: `Someone (perhaps you) tried to ${what} with this address, but no account uses it. You can create one at ${getConfig().baseUrl}/sign-up.${signature()}`,
  }),
  recoveryCode: (to: string, code: string): MailMessage => ({
    to,
    subject: `${code} is your account recovery code`,
    text: `Your recovery code is ${code}. It expires in ${minutes(getConfig().ttl.verificationCode)} minutes.${signature()}`,
  }),
  lockedOut: (to: string, lockSeconds: number): MailMessage => ({
    to,
    subject: 'Password sign-in paused after failed attempts',
    text: `There were too many wrong passwords for your account, so password sign-in is paused for ${minutes(lockSeconds)} minutes. Passkey and e-mail code sign-in still work. If this was not you, nothing is needed: your password was not accepted.${signature()}`,
  }),
  recovered: (to: string, what: 'a new passkey' | 'a new password'): MailMessage => ({
    to,
    subject: 'Your account was recovered',
    text: `Your account was recovered with ${what}, and every session was signed out. If this was not you, recover your account again now and review your passkeys.${signature()}`,
  }),
};

/** Mail that cannot be sent is 503 (the dev mailbox always accepts). */
export async function deliver(message: MailMessage): Promise<void> {
  try {
    await sendMail(message);
  } catch {
    throw serviceError('service_unavailable', 'E-mail could not be sent right now; try again shortly.');
  }
}
