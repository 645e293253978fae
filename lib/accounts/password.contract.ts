import { z } from 'zod';
import { resourceContract } from '@/lib/contract/wire';
import { WITH_STEP_UP } from './terms';

const password = z.string().min(1).max(1024);

export const getPasswordStatus = resourceContract({
  id: 'getPasswordStatus',
  method: 'GET',
  path: '/api/auth/password',
  tag: 'Account',
  summary: 'Whether your account has a password (and when it last changed), so a change asks for the current one',
  extension: true,
  auth: { kind: 'session' },
  origin: 'if-present',
  idempotency: 'none',
  successStatus: 200,
  response: z.object({ set: z.boolean(), updated_at: z.string().nullable() }),
});

export const changePassword = resourceContract({
  id: 'changePassword',
  method: 'POST',
  path: '/api/auth/password/change',
  tag: 'Account',
  summary: 'Set or change your password (current_password required when one is set); signs out your other sessions',
  extension: true,
  auth: WITH_STEP_UP,
  origin: 'required',
  idempotency: 'none',
  body: z.object({ current_password: password.optional(), new_password: password }),
  successStatus: 200,
  emits: ['identity.password.changed', 'identity.session.revoked'],
  response: z.object({ changed: z.literal(true), other_sessions_signed_out: z.number().int() }),
});
