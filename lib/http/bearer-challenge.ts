import { getConfig } from '@/lib/config';

/**
 * RFC 6750 §3 / RFC 9728 §5.1: the WWW-Authenticate challenge of a refused bearer request, naming the
 * protected-resource metadata so a client can find where to get a token.
 */
export function bearerChallenge(error?: 'invalid_token' | 'insufficient_scope', scope?: string): string {
  const parts = [`Bearer realm="${getConfig().baseUrl}"`];
  if (error) parts.push(`error="${error}"`);
  if (scope) parts.push(`scope="${scope}"`);
  parts.push(`resource_metadata="${getConfig().baseUrl}/.well-known/oauth-protected-resource"`);
  return parts.join(', ');
}
