import type { NextConfig } from 'next';
import { EVERY_RESPONSE, JSON_SURFACE, PROTOCOL_SURFACE } from './lib/http/security-headers';

const list = (headers: Record<string, string>) => Object.entries(headers).map(([key, value]) => ({ key, value }));

const nextConfig: NextConfig = {
  // Both packages load native/WASM assets or keep module-level state that bundling breaks
  // (see STACK-NOTES: oidc-provider loses its sessions when bundled; PGlite ships its WASM files; pino
  // and prom-client keep process-wide state).
  serverExternalPackages: ['@electric-sql/pglite', 'oidc-provider', 'nodemailer', 'fxa-common-password-list', 'pino', 'prom-client'],
  poweredByHeader: false,
  reactStrictMode: true,
  typedRoutes: false,
  /**
   * Fixed security headers, applied by Next's router to every matching response before any route
   * runs: API answers, fallbacks, Next's own errors and static files included, with no proxy hop.
   * Pages get their nonce-based policy from proxy.ts.
   */
  async headers() {
    return [
      { source: '/:path*', headers: list(EVERY_RESPONSE) },
      { source: '/api/:path*', headers: list(JSON_SURFACE) },
      { source: '/.well-known/:path*', headers: list(JSON_SURFACE) },
      { source: '/oauth/:path*', headers: list(PROTOCOL_SURFACE) },
    ];
  },
};

export default nextConfig;
