import type { Metadata } from 'next';
import { headers } from 'next/headers';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { fromLoopbackPeer } from '@/lib/http/client-address';
import { devMailboxReadable, latestDevMails } from '@/lib/mail';
import { MailText } from './mail-text';
import './dev-mail.css';

export const metadata: Metadata = { title: 'Dev mailbox', robots: { index: false, follow: false } };
export const dynamic = 'force-dynamic';

const SHOWN = 20;

/**
 * The dev mailbox, decoded, for a developer running the service on their own machine: the messages
 * hold every account's codes, so the page exists only in local development (the embedded database at
 * a loopback address, lib/config), only while mail goes to the mailbox (no SMTP_URL), and only for a
 * browser on this machine. Anything else is the ordinary 404. docs/decisions.md, "Local development".
 */
export default async function DevMailPage() {
  if (!devMailboxReadable() || !fromLoopbackPeer(await headers())) notFound();
  const mails = latestDevMails(SHOWN);

  return (
    <div className="dev-mail">
      <h1>Dev mailbox</h1>
      <p className="lead">
        The newest mail this service wrote to <code>DATA_DIR/mailbox</code>, decoded: codes and links read as sent. This page exists only while you run the
        service on your own machine without <code>SMTP_URL</code>.
      </p>
      <p>
        <Link href="/dev/mail">Refresh</Link> · In a terminal: <code>npm run mail:latest</code>
      </p>
      {mails.length === 0 ? (
        <p>No mail yet. Sign-up, e-mail code sign-in, recovery and invitations send mail here.</p>
      ) : (
        <ol className="dev-mail-list">
          {mails.map((mail) => (
            <li key={mail.file} className="card">
              <article aria-labelledby={`mail-${mail.file}`}>
                <h2 id={`mail-${mail.file}`}>{mail.subject || '(no subject)'}</h2>
                <dl className="dev-mail-meta">
                  <div>
                    <dt>To</dt>
                    <dd>{mail.to}</dd>
                  </div>
                  <div>
                    <dt>Sent</dt>
                    <dd>{mail.date}</dd>
                  </div>
                </dl>
                <MailText text={mail.text} />
              </article>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
