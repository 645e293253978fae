import { z } from 'zod';
import { resourceContract } from '@/lib/contract/wire';

export const askDocs = resourceContract({
  id: 'askDocs',
  method: 'POST',
  path: '/api/docs/ask',
  tag: 'Runtime and status',
  summary: 'Ask a help question; returns advisory text only',
  auth: { kind: 'public' },
  origin: 'required',
  rateLimit: 'docs_ask',
  idempotency: 'none',
  maxBodyBytes: 8 * 1024,
  body: z.object({
    question: z.string().trim().min(1).max(2000),
    page: z
      .string()
      .max(200)
      .regex(/^\/[A-Za-z0-9/_#.-]*$/, 'must be a path of this site')
      .optional(),
  }),
  successStatus: 200,
  errorStatuses: [400, 403, 429, 502, 503, 504],
  response: z.object({
    answer: z.string(),
    sources: z.array(z.object({ title: z.string(), url: z.string() })),
    advisory: z.literal(true),
  }),
});
