import type { Account, KoaContextWithOIDC } from 'oidc-provider';
import { findUserById } from '@/lib/users';
import { getDb } from '@/lib/db';

/**
 * The provider's view of an account: claims come from our user record; the provider releases only
 * those its scopes allow (lib/oidc/scopes.ts).
 */
export async function findAccount(_ctx: KoaContextWithOIDC, sub: string): Promise<Account | undefined> {
  const user = await findUserById(await getDb(), sub);
  if (!user) return undefined;
  return {
    accountId: user.id,
    claims: async () => ({
      sub: user.id,
      name: user.displayName ?? undefined,
      locale: user.locale ?? undefined,
      zoneinfo: user.timezone ?? undefined,
      email: user.email,
      email_verified: true,
    }),
  };
}
