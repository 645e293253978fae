import type { Metadata } from 'next';
import type { CallInput, CallOutput } from '@/lib/contract/client';
import type { AnyContract } from '@/lib/contract/wire';
import { CONTRACTS } from '@/lib/http/contracts';
import { callOperation } from '@/lib/http/internal-call';
import { describeCapabilitySummary } from '@/lib/status';
import { loadCapabilityMatrix } from '../_components/capability-matrix';
import { StatusBadge } from '../_components/status-badge';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Status' };

async function load<C extends AnyContract>(contract: C): Promise<CallOutput<C> | null> {
  try {
    const result = await callOperation(contract, {} as CallInput<C>);
    return result.ok ? result.body : null;
  } catch {
    return null;
  }
}

const label = (id: string) => id.replace(/_/g, ' ');

export default async function StatusPage() {
  const [matrix, readiness, rehearsal] = await Promise.all([loadCapabilityMatrix(), load(CONTRACTS.getReadiness), load(CONTRACTS.getRehearsal)]);

  return (
    <>
      <h1>Status</h1>
      <p className="lead">Live evidence from this deployment. Anything that could not be checked is shown as unavailable.</p>

      <h2 id="readiness">
        <span id="readiness-title">Readiness</span> <StatusBadge value={readiness?.status ?? 'unavailable'} />
      </h2>
      <div className="table-wrap">
        <table aria-labelledby="readiness-title">
          <thead>
            <tr>
              <th scope="col">Check</th>
              <th scope="col">State</th>
              <th scope="col">Detail</th>
            </tr>
          </thead>
          <tbody>
            {readiness ? (
              readiness.checks.map((check) => (
                <tr key={check.id}>
                  <th scope="row">{label(check.id)}</th>
                  <td data-label="State">
                    <StatusBadge value={check.state} />
                  </td>
                  <td data-label="Detail">{check.detail}</td>
                </tr>
              ))
            ) : (
              <tr>
                <td colSpan={3}>
                  <StatusBadge value="unavailable" /> Readiness evidence is unavailable.
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>

      <h2 id="capabilities">Capabilities</h2>
      {matrix && <p className="hint table-caption">{describeCapabilitySummary(matrix.summary)}</p>}
      <div className="table-wrap">
        <table aria-labelledby="capabilities">
          <thead>
            <tr>
              <th scope="col">Capability</th>
              <th scope="col">Status</th>
              <th scope="col">Why</th>
            </tr>
          </thead>
          <tbody>
            {matrix ? (
              matrix.capabilities.map((c) => (
                <tr key={c.id}>
                  <th scope="row">{c.title}</th>
                  <td data-label="Status">
                    <StatusBadge value={c.status} />
                  </td>
                  <td data-label="Why">{c.reason}</td>
                </tr>
              ))
            ) : (
              <tr>
                <td colSpan={3}>
                  <StatusBadge value="unavailable" /> Capability evidence is unavailable.
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>

      <h2 id="rehearsal">
        <span id="rehearsal-title">Launch rehearsal</span> <StatusBadge value={rehearsal?.decision ?? 'unavailable'} />
      </h2>
      <div className="table-wrap">
        <table aria-labelledby="rehearsal-title">
          <thead>
            <tr>
              <th scope="col">Gate</th>
              <th scope="col">Result</th>
              <th scope="col">Detail</th>
            </tr>
          </thead>
          <tbody>
            {rehearsal ? (
              rehearsal.gates.map((gate) => (
                <tr key={gate.id}>
                  <th scope="row">{label(gate.id)}</th>
                  <td data-label="Result">
                    <StatusBadge value={gate.passed ? 'pass' : 'fail'} />
                  </td>
                  <td data-label="Detail">{gate.detail}</td>
                </tr>
              ))
            ) : (
              <tr>
                <td colSpan={3}>
                  <StatusBadge value="unavailable" /> Rehearsal evidence is unavailable.
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      {matrix && <p className="hint">Checked at {new Date(matrix.checked_at).toUTCString()}.</p>}
    </>
  );
}
