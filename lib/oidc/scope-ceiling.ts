/**
 * The scope ceiling for self-registered clients (ASVS V10.4.11). Anyone can register a client at
 * POST /oauth/register, so such a client may ask only for what SCOPE_TABLE allows self-registration:
 * sign-in, profile and e-mail, staying connected, and reading the developer portal, sending test
 * events and `identity.api_keys.create` only together with the resource {base_url}/mcp (the spec's
 * agent flow; agent-api-keys.ts bounds an agent's API keys by this ceiling). Everything else is
 * `invalid_scope`. Clients registered in the developer portal (no `self_registered` marker) keep
 * the whole table.
 *
 * The registration sets the marker and the client's `scope` metadata to this ceiling (the provider
 * then refuses any other scope itself, at authorization and refresh); `ceilingViolation` adds the
 * rule the provider cannot express, the resource a scope needs.
 */
import { mcpResource } from './resources';
import { SCOPE_TABLE } from './scopes';

/** Set by the service on every client created through POST /oauth/register; never accepted from the registrant. */
export const SELF_REGISTERED_PROPERTY = 'self_registered';

/** Every scope a self-registered client may register for (some only with a resource, see below). */
export const SELF_REGISTRATION_SCOPES: readonly string[] = SCOPE_TABLE.filter((s) => s.selfRegistration !== 'portal_only').map((s) => s.scope);

type ClientLike = { metadata(): Record<string, unknown> } | undefined;

export function isSelfRegistered(client: ClientLike): boolean {
  return client?.metadata()[SELF_REGISTERED_PROPERTY] === true;
}

const listOf = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : typeof value === 'string' && value ? [value] : []);

/** Why a request from this client exceeds its ceiling (a sentence for `error_description`), or null. */
export function ceilingViolation(client: ClientLike, scope: unknown, resource: unknown, baseUrl: string): string | null {
  if (!isSelfRegistered(client)) return null;
  const scopes = (typeof scope === 'string' ? scope : '').split(' ').filter(Boolean);
  const resources = listOf(resource);
  for (const requested of scopes) {
    const rule = SCOPE_TABLE.find((s) => s.scope === requested)?.selfRegistration;
    if (rule === 'portal_only') return `${requested} is not available to self-registered applications`;
    if (rule === 'mcp_only' && (resources.length === 0 || resources.some((r) => r !== mcpResource(baseUrl)))) {
      return `${requested} is available to self-registered applications only with resource=${mcpResource(baseUrl)}`;
    }
  }
  return null;
}
