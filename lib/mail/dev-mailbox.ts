/**
 * Reading the dev mailbox back, decoded, for the developer running the service on their own machine
 * (/dev/mail and `npm run mail:latest`): quoted-printable splits long links and codes across lines in
 * the .eml files, which is right for mail clients and awkward for people.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { getConfig } from '@/lib/config';
import { decodeMail, type DecodedMail } from './mime';

export interface DevMail extends DecodedMail {
  /** The .eml file's name in the mailbox (its first part is the time it was written). */
  file: string;
}

/**
 * Whether the dev mailbox may be shown: local development (the embedded database at a loopback
 * address, lib/config) and mail going to the mailbox (no SMTP_URL). Never on PostgreSQL.
 */
export function devMailboxReadable(): boolean {
  const config = getConfig();
  return config.localDevelopment && config.mail.smtpUrl === null;
}

/** The newest messages first (the file names start with the time they were written). */
export function latestDevMails(limit = 20, dir = getConfig().mail.devMailboxDir): DevMail[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => name.endsWith('.eml'));
  } catch {
    return []; // no mail yet: the folder is made with the first message
  }
  return names
    .sort()
    .reverse()
    .slice(0, limit)
    .map((file) => ({ file, ...decodeMail(readFileSync(path.join(dir, file), 'utf8')) }));
}
