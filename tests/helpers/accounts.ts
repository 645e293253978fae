/**
 * Drives the account API in-process, through the real pipeline and a real SMTP sink, the way a
 * browser would: exact Origin, cookies, CSRF header, codes read from delivered mail.
 */
import { afterAll, beforeAll } from 'vitest';
import { withEnv } from '@/tests/setup/state';
import { call, operation, ORIGIN, type CallOptions } from './http';
import { startSmtpSink, type SinkMessage } from './smtp-sink';

export interface Mailbox {
  messages: SinkMessage[];
  /** Outages of the mail server: refusing every message (421), or gone (nothing listens), then back. */
  outage: { refuse(on: boolean): void; stop(): Promise<void>; restart(): Promise<void> };
  /** The decoded text of the newest mail to `to` (quoted-printable soft breaks removed). */
  textTo(to: string): string;
  /** The newest six-digit code mailed to `to`. */
  codeFor(to: string): string;
  lastTo(to: string): SinkMessage;
}

/** Starts an SMTP sink for the test file and points the service at it. */
export function useMailbox(extraEnv: Record<string, string> = {}): Mailbox {
  let close: (() => Promise<void>) | null = null;
  let refusing = false;
  let port = 0;
  const box: Mailbox = {
    messages: [],
    outage: {
      refuse: (on) => (refusing = on),
      stop: async () => {
        await close?.();
        close = null;
      },
      restart: async () => {
        close = (await startSmtpSink({ port, messages: box.messages, refusing: () => refusing })).close;
      },
    },
    lastTo(to) {
      const message = [...box.messages].reverse().find((m) => m.to.includes(to));
      if (!message) throw new Error(`No mail to ${to}`);
      return message;
    },
    textTo(to) {
      const body = box.lastTo(to).raw.split('\r\n\r\n').slice(1).join('\n');
      return body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    },
    codeFor(to) {
      const code = /\b(\d{6})\b/.exec(box.textTo(to))?.[1];
      if (!code) throw new Error(`No code in the last mail to ${to}`);
      return code;
    },
  };
  let restore: (() => void) | null = null;
  beforeAll(async () => {
    const sink = await startSmtpSink({ refusing: () => refusing });
    box.messages = sink.messages;
    port = sink.port;
    close = sink.close;
    restore = withEnv({ SMTP_URL: sink.url, ...extraEnv });
  });
  afterAll(async () => {
    restore?.();
    await close?.();
  });
  return box;
}

let clientCounter = 0;
/** A distinct client address per simulated browser keeps per-client buckets independent. */
export function newClient(): string {
  clientCounter += 1;
  return `2001:db8:a::${clientCounter.toString(16)}`;
}

export async function post(path: string, body: unknown, options: CallOptions & { client?: string } = {}): Promise<Response> {
  return call(operation('POST', path), {
    ...options,
    body,
    headers: { origin: ORIGIN, 'x-forwarded-for': options.client ?? newClient(), ...options.headers },
  });
}

export async function get(path: string, options: CallOptions = {}): Promise<Response> {
  return call(operation('GET', path), options);
}

export function cookieFrom(response: Response): string {
  const setCookie = response.headers.get('set-cookie');
  if (!setCookie) throw new Error(`No Set-Cookie on ${response.status}`);
  return setCookie.split(';')[0]!;
}

export interface Browser {
  cookie: string;
  csrf: string;
  sessionId: string;
}

export async function browserFrom(response: Response): Promise<Browser> {
  const cookie = cookieFrom(response);
  const body = (await response.json()) as { csrf_token: string; session: { id: string } };
  return { cookie, csrf: body.csrf_token, sessionId: body.session.id };
}

export const as = (browser: Browser) => ({ cookie: browser.cookie, 'x-csrf-token': browser.csrf });

/** Enrolls an account with a password through the API and the mailbox. */
export async function signUpWithPassword(mailbox: Mailbox, email: string, password: string, displayName?: string): Promise<string> {
  const start = await post('/api/auth/enrollment/start', { email });
  const { enrollment_token } = (await start.json()) as { enrollment_token: string };
  const token = { 'x-enrollment-token': enrollment_token };
  const verified = await post('/api/auth/enrollment/verify-email', { code: mailbox.codeFor(email) }, { headers: token });
  if (verified.status !== 200) throw new Error(`verify failed: ${verified.status} ${await verified.text()}`);
  const created = await post('/api/auth/enrollment/password/complete', { password, display_name: displayName }, { headers: token });
  if (created.status !== 201) throw new Error(`complete failed: ${created.status} ${await created.text()}`);
  return ((await created.json()) as { user_id: string }).user_id;
}

export async function signInWithPassword(email: string, password: string, options: CallOptions & { client?: string } = {}): Promise<Browser> {
  const response = await post('/api/auth/signin/password', { email, password }, options);
  if (response.status !== 201) throw new Error(`sign-in failed: ${response.status} ${await response.text()}`);
  return browserFrom(response);
}

export type PasskeyOptions = { options: { challenge: string; rp: { id: string }; user: { id: string } }; challenge_id: string };

/** Starts an enrollment for `email` and verifies its address; returns the enrollment token headers. */
export async function verifiedEnrollment(mailbox: Mailbox, email: string): Promise<Record<string, string>> {
  const { enrollment_token } = (await (await post('/api/auth/enrollment/start', { email })).json()) as { enrollment_token: string };
  const token = { 'x-enrollment-token': enrollment_token };
  const verified = await post('/api/auth/enrollment/verify-email', { code: mailbox.codeFor(email) }, { headers: token });
  if (verified.status !== 200) throw new Error(`verify failed: ${verified.status} ${await verified.text()}`);
  return token;
}

/** Starts a recovery for `email` and verifies its code; returns the recovery token headers. */
export async function verifiedRecovery(mailbox: Mailbox, email: string): Promise<Record<string, string>> {
  const { recovery_token } = (await (await post('/api/auth/recovery/start', { email })).json()) as { recovery_token: string };
  const token = { 'x-recovery-token': recovery_token };
  const verified = await post('/api/auth/recovery/verify', { code: mailbox.codeFor(email) }, { headers: token });
  if (verified.status !== 200) throw new Error(`recovery verify failed: ${verified.status} ${await verified.text()}`);
  return token;
}

/** WebAuthn registration options from `path` (enrollment, recovery or adding a passkey). */
export async function passkeyOptions(path: string, headers: Record<string, string>): Promise<PasskeyOptions> {
  const response = await post(path, {}, { headers });
  if (response.status !== 200) throw new Error(`options failed: ${response.status} ${await response.text()}`);
  return (await response.json()) as PasskeyOptions;
}
