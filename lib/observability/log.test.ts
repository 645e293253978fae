import { afterEach, describe, expect, it, vi } from 'vitest';
import { withEnv } from '@/tests/setup/state';
import { logLine } from './log';

function capture(stream: NodeJS.WriteStream): string[] {
  const lines: string[] = [];
  vi.spyOn(stream, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  });
  return lines;
}
afterEach(() => vi.restoreAllMocks());

describe('structured log lines', () => {
  // ASVS V16.4.1
  it('keeps every value inside its field: line breaks, quotes and a forged head stay one JSON line', () => {
    const restore = withEnv({ LOG_LEVEL: 'info' });
    const lines = capture(process.stdout);
    const hostile = 'x"}\n{"level":"info","event":"security","kind":"forged"}\r\n\u2028';
    logLine('info', 'test', { value: hostile, event: 'forged', level: 'error' }, new Date('2026-11-23T12:00:00Z'));
    restore();
    expect(lines).toHaveLength(1);
    expect(lines[0]!.endsWith('\n')).toBe(true);
    expect(lines[0]!.slice(0, -1)).not.toMatch(/[\n\r]/);
    expect(JSON.parse(lines[0]!)).toEqual({ time: '2026-11-23T12:00:00.000Z', level: 'info', event: 'test', value: hostile });
    // Each name once: a field named like the head is dropped, not written as a second key.
    for (const name of ['time', 'level', 'event']) expect(lines[0]!.split(`"${name}":`)).toHaveLength(2);
  });

  it('writes every level to stdout, and nothing below LOG_LEVEL', () => {
    const restore = withEnv({ LOG_LEVEL: 'warn' });
    const out = capture(process.stdout);
    const err = capture(process.stderr);
    logLine('info', 'quiet', {});
    logLine('warn', 'loud', {});
    logLine('error', 'louder', {});
    restore();
    expect(err).toEqual([]);
    expect(out.map((line) => JSON.parse(line) as { event: string; level: string })).toEqual([
      { time: expect.any(String), level: 'warn', event: 'loud' },
      { time: expect.any(String), level: 'error', event: 'louder' },
    ]);
  });
});
