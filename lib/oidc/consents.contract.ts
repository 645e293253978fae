import { z } from 'zod';
import { resourceContract } from '@/lib/contract/wire';

const consent = z.object({
  grant_id: z.string(),
  client_id: z.string().nullable(),
  client_name: z.string().nullable(),
  scopes: z.array(z.string()),
  resources: z.array(z.string()),
  granted_at: z.string().nullable(),
});

export const listConsents = resourceContract({
  id: 'listConsents',
  method: 'GET',
  path: '/api/auth/consents',
  tag: 'Account',
  summary: 'Applications you have allowed to access your account',
  extension: true,
  auth: { kind: 'session' },
  origin: 'if-present',
  idempotency: 'none',
  successStatus: 200,
  response: z.object({ consents: z.array(consent) }),
});

export const revokeConsent = resourceContract({
  id: 'revokeConsent',
  method: 'POST',
  path: '/api/auth/consents/revoke',
  tag: 'Account',
  summary: 'Withdraw a consent: the application loses every token it holds for you, and the API keys it created for you are revoked',
  extension: true,
  auth: { kind: 'session' },
  origin: 'required',
  idempotency: 'none',
  body: z.object({ grant_id: z.string().min(1).max(128) }),
  successStatus: 200,
  errorStatuses: [404],
  // API keys the application created under this consent are revoked with it.
  emits: ['identity.api_key.revoked'],
  response: z.object({ revoked: z.literal(true) }),
});
