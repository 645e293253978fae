import { callOperation } from '@/lib/http/internal-call';

export interface CapabilityMatrix {
  checked_at: string;
  summary: Record<string, number>;
  capabilities: { id: string; title: string; status: string; reason: string }[];
}

/** The matrix through the documented API; null when no evidence could be had. */
export async function loadCapabilityMatrix(): Promise<CapabilityMatrix | null> {
  try {
    const result = await callOperation<CapabilityMatrix>('GET', '/api/v1/capabilities');
    return result.ok ? result.body : null;
  } catch {
    return null;
  }
}
