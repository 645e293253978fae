import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface SinkMessage {
  from: string;
  to: string[];
  raw: string;
}

/**
 * A real SMTP server on 127.0.0.1 that keeps every message it receives (and hands each to
 * `onMessage`, for sinks whose readers live in another process). While `refusing()` is true it
 * answers every message with 421; started again on the same port with the same `messages`, it is the
 * same mailbox back after an outage.
 */
export async function startSmtpSink(
  options: { port?: number; onMessage?: (message: SinkMessage) => void; messages?: SinkMessage[]; refusing?: () => boolean } = {},
): Promise<{ url: string; port: number; messages: SinkMessage[]; close: () => Promise<void> }> {
  const messages: SinkMessage[] = options.messages ?? [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    // A mail server that is up but refuses (over quota, greylisting, maintenance): a temporary failure.
    onMailFrom(_address, _session, callback) {
      if (options.refusing?.()) callback(Object.assign(new Error('Service not available, try again later'), { responseCode: 421 }));
      else callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const message = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        };
        messages.push(message);
        options.onMessage?.(message);
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    messages,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
