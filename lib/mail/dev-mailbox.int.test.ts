/**
 * The dev mailbox read back for people (/dev/mail, `npm run mail:latest`): what sendMail wrote as
 * quoted-printable .eml comes back decoded, newest first, long links whole; and it is readable only
 * in local development with mail going to the mailbox.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { getConfig } from '@/lib/config';
import { withEnv } from '@/tests/setup/state';
import { devMailboxReadable, latestDevMails } from './dev-mailbox';
import { sendMail } from './mailer';
import { decodeEncodedWords, decodeMail, decodeQuotedPrintable } from './mime';

let restore: (() => void) | null = null;
const scratch: string[] = [];
afterEach(() => {
  restore?.();
  restore = null;
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function freshMailbox(env: Record<string, string | undefined> = {}) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'dev-mailbox-'));
  scratch.push(dataDir);
  restore = withEnv({ DATA_DIR: dataDir, SMTP_URL: undefined, ...env });
  return getConfig().mail.devMailboxDir;
}

const LINK = `http://localhost:3000/invitations/accept?token=${'a1B2'.repeat(30)}&organization=acme`;

describe('the dev mailbox, decoded', () => {
  it('gives back what was sent, newest first: subject, recipient, and text with long links whole', async () => {
    const dir = freshMailbox();
    await sendMail({ to: 'ada@example.test', subject: '123456 is your verification code', text: 'Your verification code is 123456.' });
    await new Promise((resolve) => setTimeout(resolve, 5)); // file names carry the millisecond they were written
    const subject = 'Join “Acme Ünited” – an invitation whose subject is long enough to be folded over several header lines';
    await sendMail({ to: 'bob@example.test', subject, text: `Join Acme Ünited = fun: ${LINK} (expires in 7 days).` });

    // On disk, quoted-printable splits the link and encodes "=" and the non-ASCII letters.
    const raw = readFileSync(path.join(dir, readdirSync(dir).sort().at(-1)!), 'utf8');
    expect(raw).not.toContain(LINK);
    expect(raw).toContain('=3D');

    const [newest, older] = latestDevMails(10);
    expect(newest).toMatchObject({ to: 'bob@example.test', subject, text: `Join Acme Ünited = fun: ${LINK} (expires in 7 days).` });
    expect(older).toMatchObject({ to: 'ada@example.test', subject: '123456 is your verification code', text: 'Your verification code is 123456.' });
    expect(latestDevMails(1)).toHaveLength(1);
  });

  it('reads the text part of a message that also has HTML, and base64 bodies', async () => {
    freshMailbox();
    await sendMail({ to: 'ada@example.test', subject: 'Both', text: 'Plain words.', html: '<p>Rich words.</p>' });
    expect(latestDevMails(1)[0]!.text).toBe('Plain words.');
    const base64 = decodeMail(
      [
        'Subject: =?UTF-8?B?w5xiZXI=?= =?UTF-8?Q?_alles?=',
        'To: a@example.test',
        'Content-Type: text/plain; charset=utf-8',
        'Content-Transfer-Encoding: base64',
        '',
        Buffer.from('Grüße').toString('base64'),
      ].join('\n'),
    );
    expect(base64).toMatchObject({ subject: 'Über alles', text: 'Grüße' });
    expect(decodeQuotedPrintable('a=3Db=\nc =E2=80=9Cq=E2=80=9D')).toBe('a=bc “q”');
    expect(decodeEncodedWords('plain words')).toBe('plain words');
  });

  it('is empty before the first message', () => {
    freshMailbox();
    expect(latestDevMails()).toEqual([]);
  });

  // ASVS V13.4.2
  it('is readable only in local development with mail going to the mailbox', () => {
    freshMailbox({ DATABASE_URL: 'memory:', LOCAL_DEVELOPMENT: undefined });
    expect(devMailboxReadable()).toBe(true);
    restore!();
    freshMailbox({ DATABASE_URL: 'memory:', LOCAL_DEVELOPMENT: undefined, SMTP_URL: 'smtp://127.0.0.1:2525' });
    expect(devMailboxReadable()).toBe(false);
    restore!();
    freshMailbox({ DATABASE_URL: 'memory:', LOCAL_DEVELOPMENT: 'false' });
    expect(devMailboxReadable()).toBe(false);
    restore!();
    freshMailbox({ DATABASE_URL: 'postgres://identity@db.internal:5432/identity', LOCAL_DEVELOPMENT: undefined });
    expect(devMailboxReadable()).toBe(false);
    restore!();
    freshMailbox({ DATABASE_URL: 'memory:', LOCAL_DEVELOPMENT: undefined, BASE_URL: 'https://id.example.com' });
    expect(devMailboxReadable()).toBe(false);
  });
});
