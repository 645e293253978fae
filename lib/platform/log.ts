/**
 * Structured log lines: one JSON object per line (`time`, `level`, `event`, then the fields), on
 * stdout for information and stderr for warnings and errors, where any log collector picks them up.
 * JSON encoding escapes line breaks and quotes in every value, so no field can forge a second line or
 * a field of its own (ASVS V16.4.1). Callers pass only non-secret values: this module cannot tell.
 */
import { getConfig } from '@/lib/config';

export type LogLevel = 'info' | 'warn' | 'error';
export type LogValue = string | number | boolean | null;

const SEVERITY = { info: 0, warn: 1, error: 2, silent: 3 } as const;

function threshold(): number {
  try {
    return SEVERITY[getConfig().logLevel];
  } catch {
    // A configuration problem must not also silence the lines that may explain it.
    return SEVERITY.info;
  }
}

export function logLine(level: LogLevel, event: string, fields: Record<string, LogValue>, now: Date = new Date()): void {
  if (SEVERITY[level] < threshold()) return;
  const head = { time: now.toISOString(), level, event };
  // The head comes first and cannot be overwritten by a field of the same name.
  const line = `${JSON.stringify(Object.assign({ ...head }, fields, head))}\n`;
  (level === 'info' ? process.stdout : process.stderr).write(line);
}
