/**
 * A throwaway certificate authority, made when a test starts (nothing is read from disk), so that
 * loopback HTTPS servers standing for a company's identity provider present certificates the service
 * verifies for real: the test hands `caFile` to the service (OUTBOUND_CA_FILE) and nothing else is
 * trusted, with no NODE_TLS_REJECT_UNAUTHORIZED anywhere. Also makes self-signed SAML signing
 * certificates (valid or expired) for SAML metadata.
 */
// @peculiar/x509 (through tsyringe) needs a Reflect metadata polyfill loaded first. reflect-metadata is
// here through @simplewebauthn/server, which imports it the same way.
import 'reflect-metadata';
import { KeyObject, webcrypto } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(webcrypto as Crypto);

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const EC_P256 = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const ECDSA_SHA256 = { name: 'ECDSA', hash: 'SHA-256' } as const;
const RSA_2048 = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256', publicExponent: new Uint8Array([1, 0, 1]), modulusLength: 2048 } as const;

export interface TestCa {
  /** The CA certificate, PEM. */
  caPem: string;
  /** The CA PEM written to a fresh temporary file (for OUTBOUND_CA_FILE). */
  caFile: string;
  /** A server leaf (ECDSA P-256) for these names: SAN DNS for names, IP for IP literals; serverAuth; valid now-1h..now+1d. */
  issueServer(hostnames: string[]): Promise<{ certPem: string; keyPem: string }>;
}

function keyPem(key: CryptoKey): string {
  return KeyObject.from(key).export({ type: 'pkcs8', format: 'pem' }) as string;
}

export async function createTestCa(): Promise<TestCa> {
  const keys = await webcrypto.subtle.generateKey(EC_P256, false, ['sign', 'verify']);
  const name = `CN=Federation Test CA ${Date.now()}`;
  const now = Date.now();
  const caCert = await x509.X509CertificateGenerator.createSelfSigned({
    name,
    keys,
    signingAlgorithm: ECDSA_SHA256,
    notBefore: new Date(now - HOUR),
    notAfter: new Date(now + 2 * DAY),
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  const caPem = caCert.toString('pem');
  const caFile = path.join(mkdtempSync(path.join(tmpdir(), 'federation-ca-')), 'ca.pem');
  writeFileSync(caFile, caPem);

  async function issueServer(hostnames: string[]) {
    if (!hostnames.length) throw new Error('issueServer needs at least one hostname');
    const leafKeys = await webcrypto.subtle.generateKey(EC_P256, true, ['sign', 'verify']);
    const issued = Date.now();
    const cert = await x509.X509CertificateGenerator.create({
      subject: `CN=${hostnames[0]}`,
      issuer: caCert.subject,
      publicKey: leafKeys.publicKey,
      signingKey: keys.privateKey,
      signingAlgorithm: ECDSA_SHA256,
      notBefore: new Date(issued - HOUR),
      notAfter: new Date(issued + DAY),
      extensions: [
        new x509.BasicConstraintsExtension(false, undefined, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
        new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
        new x509.SubjectAlternativeNameExtension(hostnames.map((value) => ({ type: isIP(value) ? ('ip' as const) : ('dns' as const), value }))),
        await x509.SubjectKeyIdentifierExtension.create(leafKeys.publicKey),
        await x509.AuthorityKeyIdentifierExtension.create(keys.publicKey),
      ],
    });
    return { certPem: cert.toString('pem'), keyPem: keyPem(leafKeys.privateKey) };
  }

  return { caPem, caFile, issueServer };
}

/**
 * A self-signed RSA-2048 (RS256) signing certificate for a SAML IdP. SAML metadata carries the
 * certificate as bare base64 DER (`certBase64`, no PEM header); `certPem` is the same certificate.
 * Defaults: CN=Test SAML IdP, valid now-1h..now+365d; pass a past `notAfter` for an expired one.
 */
export async function createSigningCertificate(
  options: { commonName?: string; notBefore?: Date; notAfter?: Date } = {},
): Promise<{ certPem: string; certBase64: string; keyPem: string }> {
  const keys = await webcrypto.subtle.generateKey(RSA_2048, true, ['sign', 'verify']);
  const now = Date.now();
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    name: `CN=${options.commonName ?? 'Test SAML IdP'}`,
    keys,
    signingAlgorithm: RSA_2048,
    notBefore: options.notBefore ?? new Date(now - HOUR),
    notAfter: options.notAfter ?? new Date(now + 365 * DAY),
    extensions: [new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true)],
  });
  return { certPem: cert.toString('pem'), certBase64: cert.toString('base64'), keyPem: keyPem(keys.privateKey) };
}
