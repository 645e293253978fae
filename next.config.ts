import type { NextConfig } from 'next';

const nextConfig: NextConfig = {
  // Both packages load native/WASM assets or keep module-level state that bundling breaks
  // (see STACK-NOTES: oidc-provider loses its sessions when bundled; PGlite ships its WASM files).
  serverExternalPackages: ['@electric-sql/pglite', 'oidc-provider', 'nodemailer', 'fxa-common-password-list'],
  poweredByHeader: false,
  reactStrictMode: true,
  typedRoutes: false,
};

export default nextConfig;
