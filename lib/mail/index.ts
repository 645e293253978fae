/** Outbound mail: SMTP through nodemailer, or the dev mailbox (and reading it back while developing). */
export { checkMailTransport, resetMailer, sendMail, type MailMessage, type MailTransportState } from './mailer';
export { devMailboxReadable, latestDevMails, type DevMail } from './dev-mailbox';
