/**
 * The scope table of the docs: each scope with its plain words, the claims it releases (userinfo and
 * ID token) and the routes that accept it, derived from the same declarations the pipeline enforces.
 */
import type { AnyOperation } from '@/lib/contract/operation';
import { SCOPE_TABLE } from '@/lib/oidc';

export interface ScopeRow {
  scope: string;
  description: string;
  alias_of: string | null;
  claims: string[];
  routes: string[];
  /** Whether a client registered through POST /oauth/register may ask for it (the scope ceiling). */
  self_registered_clients: 'allowed' | 'only with resource {base_url}/mcp' | 'no';
}

const CEILING_WORDS = { allowed: 'allowed', mcp_only: 'only with resource {base_url}/mcp', portal_only: 'no' } as const;

export function buildScopeTable(operations: readonly AnyOperation[]): ScopeRow[] {
  return SCOPE_TABLE.map((definition) => {
    const canonical = definition.aliasOf ?? definition.scope;
    const routes = operations
      .filter((op) => op.auth.kind === 'bearer' && (op.auth.scopes as readonly string[]).includes(canonical))
      .map((op) => `${op.method} ${op.path}`);
    // Claim-releasing scopes are read through userinfo (and the ID token), which takes any of our tokens.
    if (definition.claims.length > 0) routes.unshift('GET /oauth/userinfo');
    if (canonical === 'offline_access') routes.push('POST /oauth/token (grant_type=refresh_token)');
    return {
      scope: definition.scope,
      description: definition.description,
      alias_of: definition.aliasOf ?? null,
      claims: definition.claims,
      routes,
      self_registered_clients: CEILING_WORDS[definition.selfRegistration],
    };
  });
}
