/**
 * Transactional mail through nodemailer. With SMTP_URL the service talks to a real server; without it,
 * messages go to the dev mailbox: one .eml file per message under DATA_DIR/mailbox, readable by the
 * operator (and any mail client), and a log line naming the file.
 */
import { chmodSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Transporter } from 'nodemailer';
import { getConfig } from '@/lib/config';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export type MailTransportState = 'smtp_ready' | 'smtp_failed' | 'dev_mailbox';

interface MailerHandle {
  kind: 'smtp' | 'dev_mailbox';
  transport: Transporter;
}

const holder = globalThis as unknown as { __identityMailer?: MailerHandle };

async function mailer(): Promise<MailerHandle> {
  if (holder.__identityMailer) return holder.__identityMailer;
  const nodemailer = await import('nodemailer');
  const { smtpUrl } = getConfig().mail;
  holder.__identityMailer = smtpUrl
    ? {
        kind: 'smtp',
        // Bounded timeouts: a dead mail server must not hold requests (or readiness) for minutes.
        transport: nodemailer.createTransport({ url: smtpUrl, connectionTimeout: 5_000, greetingTimeout: 5_000, socketTimeout: 15_000 }),
      }
    : { kind: 'dev_mailbox', transport: nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' }) };
  return holder.__identityMailer;
}

const PRIVATE_DIR = 0o700;
const PRIVATE_FILE = 0o600;
const mailboxes = globalThis as unknown as { __identityMailboxPrivate?: Set<string> };

/**
 * The dev mailbox holds sign-in, enrollment and recovery codes: only the service's own user may read
 * it. The folder is 0700 and every message 0600; a mailbox written by an earlier version (0755/0644)
 * is tightened once per process, before the first new message lands in it.
 */
function privateMailbox(dir: string): void {
  mailboxes.__identityMailboxPrivate ??= new Set();
  if (mailboxes.__identityMailboxPrivate.has(dir)) return;
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR });
  chmodSync(dir, PRIVATE_DIR);
  for (const name of readdirSync(dir)) if (name.endsWith('.eml')) chmodSync(path.join(dir, name), PRIVATE_FILE);
  mailboxes.__identityMailboxPrivate.add(dir);
}

export async function sendMail(message: MailMessage): Promise<void> {
  const { kind, transport } = await mailer();
  const info = await transport.sendMail({ from: getConfig().mail.from, ...message });
  if (kind === 'dev_mailbox') {
    const dir = getConfig().mail.devMailboxDir;
    privateMailbox(dir);
    const file = path.join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${info.messageId.replace(/[^A-Za-z0-9]/g, '').slice(0, 24)}.eml`);
    // `mode` applies on creation (the umask can only remove bits); the name is new every time.
    writeFileSync(file, (info as unknown as { message: Buffer }).message, { mode: PRIVATE_FILE, flag: 'wx' });
    // Only the file name is logged: subjects and bodies may carry codes, which never reach logs.
    console.info(`[mail] dev mailbox: message written to ${file}`);
  }
}

/** Live check of the transport (SMTP handshake), for readiness and the capability matrix. */
export async function checkMailTransport(): Promise<MailTransportState> {
  const { kind, transport } = await mailer();
  if (kind === 'dev_mailbox') return 'dev_mailbox';
  try {
    await transport.verify();
    return 'smtp_ready';
  } catch {
    return 'smtp_failed';
  }
}

export function resetMailer(): void {
  holder.__identityMailer?.transport.close();
  holder.__identityMailer = undefined;
}
