import { execFileSync } from 'node:child_process';
import path from 'node:path';

/**
 * Ports of one e2e run, chosen free at run time (never fixed: other services may hold any port).
 * The first process to ask (Playwright's runner, loading the config) picks them and records them in
 * the environment, which its worker processes inherit, so every process of the run agrees.
 */
function runPort(name: 'E2E_PORT' | 'E2E_SMTP_PORT' | 'E2E_DNS_PORT' | 'E2E_IDP_PORT'): number {
  process.env[name] ??= execFileSync(process.execPath, [path.resolve(__dirname, '../../scripts/free-port.mjs')], { encoding: 'utf8' }).trim();
  return Number(process.env[name]);
}

export const E2E_PORT = runPort('E2E_PORT');
export const E2E_SMTP_PORT = runPort('E2E_SMTP_PORT');
/** The federation journey's DNS server and company identity provider (started by the journey itself). */
export const E2E_DNS_PORT = runPort('E2E_DNS_PORT');
export const E2E_IDP_PORT = runPort('E2E_IDP_PORT');
export const E2E_BASE_URL = `http://localhost:${E2E_PORT}`;
/** The e2e server's data directory and log (kept for the secret scan, scripts/secret-scan.ts). */
export const E2E_SERVER_DIR = path.resolve(__dirname, '../../test-results/e2e-server');
