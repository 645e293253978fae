/**
 * The federation journey's outside world, started inside the journey's worker on the ports the
 * service was told about (playwright.config.ts): a DNS server answering the domain proofs, and a
 * company identity provider (a separate node-oidc-provider with its own login and consent pages)
 * serving over HTTPS with the test-only certificate the service trusts (OUTBOUND_CA_FILE).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { startDnsServer, type TestDnsServer } from '../../tests/helpers/federation/dns-server';
import { startExternalIdp, type ExternalIdp } from '../../tests/helpers/federation/external-idp';
import { E2E_BASE_URL, E2E_DNS_PORT, E2E_IDP_PORT } from './ports';

const TLS = path.resolve(__dirname, '../../tests/fixtures/tls');

export interface CompanyWorld {
  dns: TestDnsServer;
  idp: ExternalIdp;
  clientId: string;
  clientSecret: string;
  close(): Promise<void>;
}

export async function startCompanyWorld(): Promise<CompanyWorld> {
  const certPem = readFileSync(path.join(TLS, 'localhost-test.crt'), 'utf8');
  const keyPem = readFileSync(path.join(TLS, 'localhost-test.key'), 'utf8');
  const dns = await startDnsServer(E2E_DNS_PORT);
  const clientId = 'identity-service-e2e';
  const clientSecret = 'company idp client secret';
  const idp = await startExternalIdp({
    clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: [`${E2E_BASE_URL}/api/auth/federation/oidc/callback`] }],
    fixed: { certPem, keyPem, caPem: certPem, caFile: path.join(TLS, 'localhost-test.crt'), port: E2E_IDP_PORT },
  });
  return { dns, idp, clientId, clientSecret, close: async () => void (await Promise.all([dns.close(), idp.close()])) };
}
