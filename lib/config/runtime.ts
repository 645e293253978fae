/**
 * The Node.js release lines the service supports: the LTS lines 22 and 24 (package.json `engines`).
 * Older lines are refused at start-up (Node 20 reached end of life in April 2026, and oidc-provider 9
 * and iron-session 9 need 22); newer or odd-numbered lines run with a warning, since nobody tested them.
 */
export const SUPPORTED_NODE_MAJORS = [22, 24] as const;

export type RuntimeVerdict = { verdict: 'supported' } | { verdict: 'refused' | 'untested'; message: string };

export function runtimeVerdict(nodeVersion: string): RuntimeVerdict {
  const major = Number(nodeVersion.replace(/^v/, '').split('.')[0]);
  if ((SUPPORTED_NODE_MAJORS as readonly number[]).includes(major)) return { verdict: 'supported' };
  const lines = SUPPORTED_NODE_MAJORS.map((m) => `${m}.x`).join(' or ');
  if (!Number.isInteger(major) || major < SUPPORTED_NODE_MAJORS[0]) {
    return { verdict: 'refused', message: `Node.js ${nodeVersion} is not supported: run the service on Node.js ${lines} (LTS).` };
  }
  return { verdict: 'untested', message: `Node.js ${nodeVersion} is untested: the supported releases are Node.js ${lines} (LTS).` };
}
