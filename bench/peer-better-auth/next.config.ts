import type { NextConfig } from 'next';

/** The benchmark's peer app: built and started by bench/session-read.ts, never part of the service's build. */
const nextConfig: NextConfig = {
  serverExternalPackages: ['pg'],
  poweredByHeader: false,
  typescript: { ignoreBuildErrors: true },
};

export default nextConfig;
