import { getConfig } from '@/lib/config';
import { capabilityMatrix } from '@/lib/status';

/**
 * Benchmark baseline only (bench/pipeline.ts): the same JSON as GET /api/v1/capabilities with no
 * pipeline around it. Absent (404) unless BENCH_BARE_ROUTE=true.
 */
export async function GET() {
  if (!getConfig().benchBareRoute) return new Response(null, { status: 404 });
  return Response.json(await capabilityMatrix());
}
