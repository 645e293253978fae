/**
 * Structured log lines from one logger (pino, without transports: those run in worker threads that
 * break under Next's bundling): one JSON object per line on stdout, `time`, `level`, `event`, then the
 * fields, where any log collector picks them up. The logger lives on globalThis, so every bundle of
 * the process writes through the same one. JSON encoding escapes line breaks and quotes in every
 * value, so no field can forge a second line or a field of its own (ASVS V16.4.1). Callers pass only
 * non-secret values (the audit data allow-list rule): this module cannot tell.
 */
import pino, { type Logger } from 'pino';
import { getConfig } from '@/lib/config';

export type LogLevel = 'info' | 'warn' | 'error';
export type LogValue = string | number | boolean | null;

function configuredLevel(): string {
  try {
    return getConfig().logLevel;
  } catch {
    // A configuration problem must not also silence the lines that may explain it.
    return 'info';
  }
}

function build(): Logger {
  return pino(
    {
      level: configuredLevel(),
      base: null,
      messageKey: 'event',
      // The line's own time (callers may pass the clock of the request they log).
      timestamp: () => `,"time":"${holder.__identityLogTime}"`,
      formatters: { level: (label) => ({ level: label }) },
    },
    // Through process.stdout (not a file descriptor of its own): ordered with anything else the
    // process writes there, and observable in tests.
    { write: (line: string) => process.stdout.write(line) },
  );
}

// The logger and the time of the line being written are shared by every bundle's copy of this module.
const holder = globalThis as unknown as { __identityLogger?: Logger; __identityLogTime?: string };

function logger(): Logger {
  const current = (holder.__identityLogger ??= build());
  // LOG_LEVEL is read per line, so a changed environment (tests) takes effect without a restart.
  const level = configuredLevel();
  if (current.level !== level) current.level = level;
  return current;
}

export function logLine(level: LogLevel, event: string, fields: Record<string, LogValue>, now: Date = new Date()): void {
  const log = logger();
  if (!log.isLevelEnabled(level)) return;
  // The head comes first and cannot be overwritten by a field of the same name.
  const { time: _time, level: _level, event: _event, msg: _msg, ...rest } = fields;
  // pino writes synchronously: the time set here is the one this line carries.
  holder.__identityLogTime = now.toISOString();
  log[level](rest, event);
}
