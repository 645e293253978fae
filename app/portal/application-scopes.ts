import { SCOPE_TABLE } from '@/lib/contract/scope-table';

/** A scope an application may be registered with, as the portal offers it (not a wire shape). */
export interface ScopeChoice {
  scope: string;
  /** The consent screen's plain words for it. */
  description: string;
}

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
