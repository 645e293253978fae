import { SCOPE_TABLE } from '@/lib/oidc';
import type { ScopeChoice } from './types';

/**
 * What an application may ask for: every scope the provider advertises in discovery
 * (`scopes_supported`) and the developer API accepts, in the consent screen's words and the table's
 * order. The OpenID Connect names `profile` and `email` are among them, since off-the-shelf relying
 * parties ask for those; each says which scope it stands for.
 */
export const APPLICATION_SCOPES: ScopeChoice[] = SCOPE_TABLE.map(({ scope, description, aliasOf }) => ({
  scope,
  description: aliasOf ? `${description} (the OpenID Connect name for ${aliasOf})` : description,
}));
