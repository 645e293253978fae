import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { getConfig } from '@/lib/config';
import { startSmtpSink } from '@/tests/helpers/smtp-sink';
import { withEnv } from '@/tests/setup/state';
import { checkMailTransport, sendMail } from './mailer';

let restore: (() => void) | null = null;
const scratch: string[] = [];
afterEach(() => {
  restore?.();
  restore = null;
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('mail', () => {
  it('delivers through real SMTP when SMTP_URL is set', async () => {
    const sink = await startSmtpSink();
    restore = withEnv({ SMTP_URL: sink.url, MAIL_FROM: 'Identity <id@example.test>' });
    expect(await checkMailTransport()).toBe('smtp_ready');
    await sendMail({ to: 'ada@example.test', subject: 'Your code', text: 'Code: 123456' });
    expect(sink.messages).toHaveLength(1);
    expect(sink.messages[0]!.to).toEqual(['ada@example.test']);
    expect(sink.messages[0]!.from).toBe('id@example.test');
    expect(sink.messages[0]!.raw).toContain('Subject: Your code');
    await sink.close();
  });

  it('writes to the dev mailbox as readable .eml files without SMTP_URL', async () => {
    expect(await checkMailTransport()).toBe('dev_mailbox');
    await sendMail({ to: 'grace@example.test', subject: 'Welcome', text: 'Hello Grace' });
    const dir = getConfig().mail.devMailboxDir;
    const files = readdirSync(dir).filter((f) => f.endsWith('.eml'));
    expect(files.length).toBeGreaterThanOrEqual(1);
    const latest = readFileSync(path.join(dir, files.sort().at(-1)!), 'utf8');
    expect(latest).toContain('To: grace@example.test');
    expect(latest).toContain('Hello Grace');
  });

  // ASVS V13.3.2
  it('keeps the dev mailbox private to the service user: files 0600, folder 0700 (they hold codes)', async () => {
    // A data folder whose mailbox an earlier version left world-readable (folder and message).
    const dataDir = mkdtempSync(path.join(tmpdir(), 'mailbox-'));
    scratch.push(dataDir);
    restore = withEnv({ DATA_DIR: dataDir });
    const dir = getConfig().mail.devMailboxDir;
    mkdirSync(dir, { recursive: true });
    chmodSync(dir, 0o755);
    const old = path.join(dir, '2020-01-01T00-00-00-000Z-old.eml');
    writeFileSync(old, 'Subject: old code', { mode: 0o644 });
    chmodSync(old, 0o644);
    await sendMail({ to: 'alan@example.test', subject: 'Your code', text: 'Code: 654321' });
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.eml'))) {
      expect(statSync(path.join(dir, file)).mode & 0o777, file).toBe(0o600);
    }
  });

  // ASVS V16.5.2
  it('reports a dead SMTP server as failed within bounded time', async () => {
    const sink = await startSmtpSink();
    await sink.close();
    restore = withEnv({ SMTP_URL: sink.url });
    expect(await checkMailTransport()).toBe('smtp_failed');
    await expect(sendMail({ to: 'x@example.test', subject: 's', text: 't' })).rejects.toThrow();
  });
});
