import type { CapabilityStatus } from './capabilities';

/** The order statuses are counted and said in: what works first, what is missing last. */
export const STATUS_ORDER: readonly CapabilityStatus[] = ['live', 'degraded', 'gated', 'manual', 'planned'];

export type CapabilitySummary = Record<CapabilityStatus, number>;

/** How many capabilities are in each status; every capability counts exactly once. */
export function summarizeCapabilities(capabilities: readonly { status: CapabilityStatus }[]): CapabilitySummary {
  const summary = Object.fromEntries(STATUS_ORDER.map((status) => [status, 0])) as CapabilitySummary;
  for (const c of capabilities) summary[c.status] += 1;
  return summary;
}

/**
 * The one sentence the home and status pages show, e.g. "24 capabilities: 10 live, 7 degraded,
 * 7 planned." Built from the API's `summary`, so both pages say what GET /api/v1/capabilities says.
 */
export function describeCapabilitySummary(summary: Partial<Record<string, number>>): string {
  const total = STATUS_ORDER.reduce((sum, status) => sum + (summary[status] ?? 0), 0);
  const parts = STATUS_ORDER.filter((status) => (summary[status] ?? 0) > 0).map((status) => `${summary[status]} ${status}`);
  return `${total} ${total === 1 ? 'capability' : 'capabilities'}: ${parts.join(', ')}.`;
}
