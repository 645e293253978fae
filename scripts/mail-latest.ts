/**
 * `npm run mail:latest` (or `npm run mail:latest -- 5`): the newest messages of the dev mailbox
 * (DATA_DIR/mailbox), decoded, so codes and links read as sent rather than split by quoted-printable.
 * The same as the /dev/mail page, for a terminal.
 */
import { getConfig } from '../lib/config';
import { latestDevMails } from '../lib/mail';

const count = Number(process.argv[2] ?? 3);
if (!Number.isInteger(count) || count < 1) {
  console.error('usage: npm run mail:latest [-- <how many, default 3>]');
  process.exit(1);
}
const { mail } = getConfig();
if (mail.smtpUrl) console.log('SMTP_URL is set: new mail goes to that server; the dev mailbox holds only what was written before.\n');
const mails = latestDevMails(count);
if (mails.length === 0) console.log(`No mail in ${mail.devMailboxDir} yet.`);
for (const message of mails.reverse()) {
  console.log(`── ${message.date} · ${message.file}\nTo: ${message.to}\nSubject: ${message.subject}\n\n${message.text}\n`);
}
