/**
 * The properties' own judgement of an answer's error format, on answers made by hand (no service):
 * what the walk accepts must be what the service is meant to answer.
 */
import { describe, expect, it } from 'vitest';
import { operation } from '../helpers/http';
import { answerViolations } from './surfaces';

const problem = (requestId: string, headers: Record<string, string>) => ({
  status: 409,
  headers: new Headers({ 'content-type': 'application/problem+json', ...headers }),
  text: JSON.stringify({ type: 'about:blank#conflict', title: 'Conflict', status: 409, code: 'conflict', request_id: requestId }),
});

describe('the error format property', () => {
  const op = operation('DELETE', '/api/organizations/{id}/members/{member_id}');

  it("wants a fresh problem's request_id to be its X-Request-ID", () => {
    expect(answerViolations(op, problem('first-request-0001', { 'x-request-id': 'second-request-0002' }))).toEqual([
      'problem request_id differs from X-Request-ID',
    ]);
    expect(answerViolations(op, problem('second-request-0002', { 'x-request-id': 'second-request-0002' }))).toEqual([]);
  });

  it('accepts a replayed problem as it was stored, with the request_id of its first execution (found by the search, PROPERTY_SEED=138830257)', () => {
    expect(answerViolations(op, problem('first-request-0001', { 'x-request-id': 'second-request-0002', 'idempotent-replayed': 'true' }))).toEqual([]);
    expect(answerViolations(op, problem('', { 'x-request-id': 'second-request-0002', 'idempotent-replayed': 'true' }))).toEqual([
      'a replayed problem without its request_id',
    ]);
  });
});
