/**
 * Scopes as the provider uses them: the claims each releases and the consent screen's plain words,
 * from the one scope table (lib/contract/scope-table.ts).
 */
import { SCOPE_TABLE } from '@/lib/contract/scope-table';

export { SCOPE_TABLE, type ScopeDefinition } from '@/lib/contract/scope-table';

/** oidc-provider's `claims` configuration: scope -> released claims. */
export function claimsByScope(): Record<string, string[]> {
  return Object.fromEntries(SCOPE_TABLE.filter((s) => s.claims.length > 0).map((s) => [s.scope, s.claims]));
}

/** Requested scopes in the consent screen's plain words (unknown values are shown as they are). */
export function describeScopes(scope: string): { scope: string; description: string }[] {
  return scope
    .split(' ')
    .filter(Boolean)
    .map((requested) => ({ scope: requested, description: SCOPE_TABLE.find((s) => s.scope === requested)?.description ?? requested }));
}
