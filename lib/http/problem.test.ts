import { describe, expect, it } from 'vitest';
import { describeForLog } from './problem';

describe('logging unexpected errors', () => {
  it('keeps a failed query statement and the database error, never its parameters', () => {
    const cause = Object.assign(new Error('duplicate key value violates unique constraint "sessions_pkey"'), { code: '23505' });
    const failed = new Error('Failed query: insert into "sessions" ("id", "secret_hash") values ($1, $2)\nparams: 0b7c7f52,Zm9vYmFyLXNlY3JldC1oYXNo', {
      cause,
    });
    failed.name = 'DrizzleQueryError';
    const logged = describeForLog(failed);
    expect(logged).toContain('insert into "sessions"');
    expect(logged).toContain('23505');
    expect(logged).not.toContain('Zm9vYmFyLXNlY3JldC1oYXNo');
  });
});
