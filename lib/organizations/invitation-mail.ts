/**
 * The invitation mail. The link carries the invitation's token, which exists only here and in the
 * invitee's mailbox (the service stores its hash); nothing about this message is logged.
 */
import { getConfig, SERVICE_NAME } from '@/lib/config';
import type { MailMessage } from '@/lib/mail';

export function acceptLink(token: string): string {
  return `${getConfig().baseUrl}/invitations/accept?token=${encodeURIComponent(token)}`;
}

export function invitationMail(input: { to: string; organizationName: string; roleName: string; token: string; expiresAt: Date }): MailMessage {
  const { baseUrl } = getConfig();
  return {
    to: input.to,
    subject: `You are invited to join ${input.organizationName}`,
    text:
      `You are invited to join the organization "${input.organizationName}" on ${SERVICE_NAME} as ${input.roleName}.\n\n` +
      `To accept, open this link and sign in (or create an account) with this e-mail address:\n${acceptLink(input.token)}\n\n` +
      `The link works once and expires on ${input.expiresAt.toUTCString()}.` +
      `\n\n-- \n${SERVICE_NAME} at ${baseUrl}\nIf you did not expect this invitation, you can ignore this message.`,
  };
}
