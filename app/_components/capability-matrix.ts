import type { CallOutput } from '@/lib/contract/client';
import { CONTRACTS } from '@/lib/http/contracts';
import { callOperation } from '@/lib/http/internal-call';

export type CapabilityMatrix = CallOutput<typeof CONTRACTS.getCapabilities>;

/** The matrix through the documented API; null when no evidence could be had. */
export async function loadCapabilityMatrix(): Promise<CapabilityMatrix | null> {
  try {
    const result = await callOperation(CONTRACTS.getCapabilities, {});
    return result.ok ? result.body : null;
  } catch {
    return null;
  }
}
