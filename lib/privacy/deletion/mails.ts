/**
 * The person hears of each step of their deletion request by mail, at the account's address: asked,
 * cancelled, completed (the last one sent just before the address itself is erased).
 */
import { getConfig, SERVICE_NAME } from '@/lib/config';
import { sendMail, type MailMessage } from '@/lib/mail';
import { logLine } from '@/lib/platform';
import type { DeletionEffects } from './transitions';

const signature = () => `\n\n-- \n${SERVICE_NAME} at ${getConfig().baseUrl}`;

const MESSAGES: Record<DeletionEffects['mail'], (to: string) => MailMessage> = {
  requested: (to) => ({
    to,
    subject: 'We received your request to delete your account',
    text: `You asked for your account to be deleted. Nothing is deleted yet: the request waits for review, and until then you can cancel it on your account page (${getConfig().baseUrl}/account). If this was not you, sign in, cancel it, and change your password or passkeys.${signature()}`,
  }),
  cancelled: (to) => ({
    to,
    subject: 'Your account deletion request was cancelled',
    text: `Your request to delete your account was cancelled; your account stays as it is. If this was not you, sign in and review your sessions.${signature()}`,
  }),
  completed: (to) => ({
    to,
    subject: 'Your account was deleted',
    text: `As you asked, your account and its data were deleted. This is the last message to this address about it.${signature()}`,
  }),
};

/** After the change committed: a mail that cannot be sent is logged (the request's state stands on its own). */
export async function tellPerson(kind: DeletionEffects['mail'], to: string, requestId: string): Promise<void> {
  try {
    await sendMail(MESSAGES[kind](to));
  } catch {
    logLine('warn', 'deletion_mail_failed', { request_id: requestId, kind });
  }
}
