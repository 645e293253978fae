/**
 * Endpoints for the operator's machinery, answered before Next (front-door.ts), outside the API and
 * its versioning: `GET /metrics` (Prometheus exposition, bearer METRICS_TOKEN; off without it) and
 * `GET /readyz` (the load balancer's probe: 200 while ready or degraded, 503 when not ready or
 * draining). Both are cheap: readiness comes from the status evidence cache, the metrics scrape reads
 * the webhook queue once, bounded.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { getConfig } from '@/lib/config';
import { serviceError } from '@/lib/contract/errors';
import { metrics, scrape, within } from '@/lib/platform';
import { readiness } from '@/lib/status';
import { webhookQueueStats } from '@/lib/webhooks';
import { requestIdFor } from './request-id';
import { errorResponse } from './surfaces';

const QUEUE_READ_BOUND_MS = 1_000;

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/** Constant-time over digests, so neither the token nor its length leaks through timing. */
function presentsToken(authorization: string | null, token: string): boolean {
  const presented = /^Bearer (.+)$/i.exec(authorization ?? '')?.[1] ?? '';
  return timingSafeEqual(digest(presented), digest(token));
}

async function refreshQueueGauges(): Promise<void> {
  const m = metrics();
  try {
    const stats = await within(QUEUE_READ_BOUND_MS, () => webhookQueueStats(new Date()));
    m.webhookQueueDepth.set(stats.due);
    m.webhookOldestDue.set(stats.oldestDueSeconds);
  } catch {
    // The database is unreachable: the scrape still answers; the queue gauges read NaN (unknown), not a stale 0.
    m.webhookQueueDepth.set(Number.NaN);
    m.webhookOldestDue.set(Number.NaN);
  }
}

async function refreshReadyGauge(): Promise<'ready' | 'degraded' | 'not_ready'> {
  const { status } = await readiness();
  metrics().ready.set(status === 'not_ready' ? 0 : 1);
  return status;
}

export async function answerMetrics(headers: Headers): Promise<Response> {
  const token = getConfig().metricsToken;
  const requestId = requestIdFor(headers);
  if (!token) return errorResponse('api', serviceError('not_found', 'No operation exists at this path.'), requestId);
  if (!presentsToken(headers.get('authorization'), token)) {
    return errorResponse('api', serviceError('unauthenticated', 'The metrics token is missing or wrong.'), requestId, {
      'WWW-Authenticate': 'Bearer realm="metrics"',
    });
  }
  await Promise.all([refreshQueueGauges(), refreshReadyGauge()]);
  const { body, contentType } = await scrape();
  return new Response(body, { status: 200, headers: { 'Content-Type': contentType, 'Cache-Control': 'no-store', 'X-Request-ID': requestId } });
}

export async function answerReadinessProbe(headers: Headers): Promise<Response> {
  const status = await refreshReadyGauge();
  return new Response(JSON.stringify({ status }), {
    status: status === 'not_ready' ? 503 : 200,
    headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', 'X-Request-ID': requestIdFor(headers) },
  });
}
