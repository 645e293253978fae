/**
 * The SMTP sink of the e2e journeys: the built service sends through nodemailer to it, and each
 * message lands as an .eml file the tests read (the server and the tests run in different processes).
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startSmtpSink } from '../../tests/helpers/smtp-sink';
import { E2E_SMTP_PORT } from './ports';

export const MAIL_DIR = path.resolve(__dirname, '../../test-results/e2e-mail');

export async function startMailSink(): Promise<() => Promise<void>> {
  rmSync(MAIL_DIR, { recursive: true, force: true });
  mkdirSync(MAIL_DIR, { recursive: true });
  let sequence = 0;
  const sink = await startSmtpSink({
    port: E2E_SMTP_PORT,
    onMessage: (message) => {
      sequence += 1;
      const file = path.join(MAIL_DIR, `${String(sequence).padStart(5, '0')}-${message.to.join(',')}.eml`);
      // Written aside, then renamed: a reader polling the folder never sees half a message.
      writeFileSync(`${file}.part`, message.raw);
      renameSync(`${file}.part`, file);
    },
  });
  return sink.close;
}

function decoded(raw: string): string {
  const body = raw
    .split(/\r?\n\r?\n/)
    .slice(1)
    .join('\n');
  return body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** Waits for a mail to `to` newer than `after` mails and returns its decoded text. */
export async function waitForMail(to: string, after = 0, timeoutMs = 10_000): Promise<{ text: string; count: number }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const files = readdirSync(MAIL_DIR)
      .filter((f) => f.endsWith(`-${to}.eml`))
      .sort();
    if (files.length > after) return { text: decoded(readFileSync(path.join(MAIL_DIR, files.at(-1)!), 'utf8')), count: files.length };
    if (Date.now() > deadline) throw new Error(`No mail to ${to}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export function mailCount(to: string): number {
  return readdirSync(MAIL_DIR).filter((f) => f.endsWith(`-${to}.eml`)).length;
}

export async function waitForCode(to: string, after = 0): Promise<string> {
  const { text } = await waitForMail(to, after);
  const code = /\b(\d{6})\b/.exec(text)?.[1];
  if (!code) throw new Error(`No code in the mail to ${to}`);
  return code;
}
