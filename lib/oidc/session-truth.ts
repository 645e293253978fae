/**
 * Our browser session is the only truth (ARCHITECTURE.md, OAuth): an earlier grant is reused without
 * asking only while the browser still holds a live session of ours for the same account. Otherwise
 * the provider must interact, and the hosted pages then require sign-in and consent again, so signing
 * out or revoking a session also ends silent authorizations.
 */
import type { KoaContextWithOIDC } from 'oidc-provider';
import { resolveSessionCookie } from '@/lib/sessions/sessions.service';
import { sessionCookieName } from '@/lib/sessions/session-cookie';

export async function loadExistingGrant(ctx: KoaContextWithOIDC) {
  const { oidc } = ctx;
  const consented = oidc.result?.consent?.grantId;
  if (!consented) {
    // Not signed (ours is an iron-session seal, not a Koa-signed cookie).
    const cookie = ctx.cookies.get(sessionCookieName(), { signed: false });
    const ours = cookie ? await resolveSessionCookie(cookie, new Date()) : null;
    if (!ours || ours.userId !== oidc.session?.accountId) return undefined;
  }
  const grantId = consented ?? (oidc.client ? oidc.session?.grantIdFor(oidc.client.clientId) : undefined);
  return grantId ? oidc.provider.Grant.find(grantId) : undefined;
}
