/** Outbound mail: SMTP through nodemailer, or the dev mailbox. */
export { checkMailTransport, resetMailer, sendMail, type MailMessage, type MailTransportState } from './mailer';
