/**
 * Our browser session is the only truth (ARCHITECTURE.md, OAuth). node-oidc-provider keeps a session
 * of its own; this check, added to its `login` prompt, makes it worthless without ours: unless the
 * browser holds a live session of ours for the same account and the same sign-in (the provider's
 * login time is ours, see consent.ts), the provider must interact again. So signing out, revoking a
 * session or signing in as someone else ends silent authorizations at once, and `prompt=none` then
 * answers `login_required`. (Revocation also deletes the provider's sessions: sessions.service.ts.)
 */
import type { KoaContextWithOIDC } from 'oidc-provider';
import { resolveSessionCookie } from '@/lib/sessions';
import { sessionCookieName } from '@/lib/sessions';

type CheckClass = typeof import('oidc-provider').interactionPolicy.Check;

async function ourSessionMatches(ctx: KoaContextWithOIDC): Promise<boolean> {
  const providerSession = ctx.oidc.session;
  if (!providerSession?.accountId) return false;
  // Not signed (ours is an iron-session seal, not a Koa-signed cookie).
  const cookie = ctx.cookies.get(sessionCookieName(), { signed: false });
  const ours = cookie ? await resolveSessionCookie(cookie, new Date()) : null;
  return ours !== null && ours.userId === providerSession.accountId && Math.floor(ours.authenticatedAt.getTime() / 1000) === providerSession.authTime();
}

export function sessionTruthCheck(Check: CheckClass) {
  return new Check('session_truth', 'End-User authentication at the service is required', 'login_required', async (ctx) =>
    // With no provider session at all, the built-in no_session check already asks for login.
    !ctx.oidc.session?.accountId || (await ourSessionMatches(ctx)) ? Check.NO_NEED_TO_PROMPT : Check.REQUEST_PROMPT,
  );
}
