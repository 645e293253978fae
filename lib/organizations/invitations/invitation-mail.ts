/**
 * The invitation mail. The link carries the invitation's token, which exists only here and in the
 * invitee's mailbox (the service stores its hash); nothing about this message is logged. It says who
 * invites (their name, if they gave one, and always their address: a name alone proves nothing) to
 * which organization, with which role.
 */
import { getConfig, SERVICE_NAME } from '@/lib/config';
import type { MailMessage } from '@/lib/mail';

export function acceptLink(token: string): string {
  return `${getConfig().baseUrl}/invitations/accept?token=${encodeURIComponent(token)}`;
}

export interface Inviter {
  email: string;
  displayName: string | null;
}

/** "Ada Lovelace (ada@example.com)", or the address alone. */
export function inviterText(inviter: Inviter): string {
  return inviter.displayName ? `${inviter.displayName} (${inviter.email})` : inviter.email;
}

export function invitationMail(input: {
  to: string;
  inviter: Inviter | null;
  organizationName: string;
  roleName: string;
  token: string;
  expiresAt: Date;
}): MailMessage {
  const { baseUrl } = getConfig();
  const who = input.inviter ? inviterText(input.inviter) : null;
  return {
    to: input.to,
    subject: who ? `${who} invited you to join ${input.organizationName}` : `You are invited to join ${input.organizationName}`,
    text:
      `${who ? `${who} invited you` : 'You are invited'} to join the organization "${input.organizationName}" on ${SERVICE_NAME} as ${input.roleName}.\n\n` +
      `To accept, open this link. Sign in with this e-mail address (${input.to}), or create an account: the link confirms the address, so no code is needed.\n` +
      `${acceptLink(input.token)}\n\n` +
      `The link works once and expires on ${input.expiresAt.toUTCString()}. Keep it to yourself: whoever holds it can create an account for this address and join.` +
      `\n\n-- \n${SERVICE_NAME} at ${baseUrl}\nIf you did not expect this invitation, you can ignore this message.`,
  };
}
