import { serviceError } from '@/lib/contract/errors';
import type { AnyOperation } from '@/lib/contract/operation';

export const CURRENT_API_VERSION = 'v1';
export const SUPPORTED_API_VERSIONS = ['v1'] as const;
export const DEPRECATION_NOTICE_DAYS = 180;

/** Absent or a supported version passes; anything else is refused before authentication. */
export function assertSupportedVersion(headers: Headers): void {
  const requested = headers.get('x-service-api-version');
  if (requested === null) return;
  if (!(SUPPORTED_API_VERSIONS as readonly string[]).includes(requested.trim())) {
    throw serviceError('unsupported_api_version', `Supported versions: ${SUPPORTED_API_VERSIONS.join(', ')}.`, {
      extras: { supported_versions: [...SUPPORTED_API_VERSIONS] },
    });
  }
}

/** Versioned surfaces advertise their lifecycle (and Deprecation / Sunset when an operation has them). */
export function versionHeaders(op: AnyOperation | null): Record<string, string> {
  const headers: Record<string, string> = {
    'X-Service-API-Version': CURRENT_API_VERSION,
    'X-Service-API-Lifecycle': op?.lifecycle?.sunsetAt ? 'sunset-scheduled' : op?.lifecycle?.deprecatedAt ? 'deprecated' : 'current',
  };
  if (op?.lifecycle?.deprecatedAt) {
    // RFC 9745: Deprecation is a structured-field date (@epoch seconds).
    headers['Deprecation'] = `@${Math.floor(op.lifecycle.deprecatedAt.getTime() / 1000)}`;
    headers['Link'] = '</docs/versioning>; rel="deprecation"; type="text/html"';
  }
  if (op?.lifecycle?.sunsetAt) {
    // RFC 8594: Sunset is an HTTP-date.
    headers['Sunset'] = op.lifecycle.sunsetAt.toUTCString();
  }
  return headers;
}
