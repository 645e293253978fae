/**
 * Bearer secrets at rest: after a complete OAuth flow, neither `oidc_models` nor any other table of the
 * database holds a token, code, session id or interaction id in clear (issue 9, item 22).
 */
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db';
import { call, operation } from '@/tests/helpers/http';
import { signInWithPassword, signUpWithPassword, useMailbox } from '@/tests/helpers/accounts';
import {
  authorizationParams,
  authorize,
  CookieJar,
  decideAs,
  exchangeCode,
  interactionOf,
  pkce,
  registerNativeClient,
  registerPortalClient,
  resume,
  tokenRequest,
} from '@/tests/helpers/oauth';

const mailbox = useMailbox();

function rowsOf(result: unknown): Record<string, unknown>[] {
  return Array.isArray(result) ? result : ((result as { rows?: Record<string, unknown>[] }).rows ?? []);
}

/** Every row of every table of the application's schema, as text. */
async function databaseDump(): Promise<string> {
  const db = await getDb();
  const tables = rowsOf(await db.execute(sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`));
  const parts: string[] = [];
  for (const { table_name: name } of tables) {
    const rows = rowsOf(await db.execute(sql.raw(`select t::text as row from "${String(name)}" t`)));
    parts.push(`## ${String(name)}\n${rows.map((r) => String(r.row)).join('\n')}`);
  }
  return parts.join('\n');
}

async function oidcModelsDump(): Promise<string> {
  return rowsOf(await (await getDb()).execute(sql`select t::text as row from oidc_models t`))
    .map((r) => String(r.row))
    .join('\n');
}

describe('OAuth artefacts at rest', () => {
  // ASVS V14.2.4
  it('after code, token, refresh, userinfo, a bearer write and registration, no secret value is stored anywhere', async () => {
    const email = 'at-rest@example.test';
    await signUpWithPassword(mailbox, email, 'a long and unusual passphrase');
    const browser = await signInWithPassword(email, 'a long and unusual passphrase');
    const registered = await registerNativeClient();
    // A bearer write needs identity.profile.write, beyond the ceiling of a self-registered client.
    const clientId = await registerPortalClient();
    const { verifier, challenge } = pkce();
    const jar = new CookieJar(browser);
    const started = await authorize(
      jar,
      authorizationParams(clientId, challenge, { scope: 'openid offline_access identity.profile.read identity.profile.write', prompt: 'consent' }),
    );
    const interactionId = interactionOf(started);
    const providerCookies = jar.values();
    const decided = await decideAs(browser, interactionId);
    const callback = await resume(jar, (await decided.json()).redirect_to);
    const code = callback.searchParams.get('code')!;
    const tokens = await (await exchangeCode(clientId, callback, verifier)).json();
    expect(tokens.refresh_token).toEqual(expect.any(String));
    const refreshed = await (await tokenRequest({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: clientId })).json();
    expect(refreshed.access_token).toEqual(expect.any(String));
    const bearer = { authorization: `Bearer ${refreshed.access_token}` };
    expect((await call(operation('GET', '/oauth/userinfo'), { headers: bearer })).status).toBe(200);
    // An idempotent bearer write stores a record keyed by the caller: never by the token itself.
    const patched = await call(operation('PATCH', '/api/v1/me'), { body: { display_name: 'At Rest' }, headers: { ...bearer, 'idempotency-key': 'at-rest-1' } });
    expect(patched.status).toBe(200);

    const secrets: Record<string, string> = {
      'authorization code': code,
      'first access token': tokens.access_token,
      'first refresh token': tokens.refresh_token,
      'rotated access token': refreshed.access_token,
      'rotated refresh token': refreshed.refresh_token,
      'interaction id': interactionId,
      ...Object.fromEntries(
        Object.entries(providerCookies)
          .filter(([name]) => name.startsWith('_') && !name.endsWith('.sig'))
          .map(([name, value]) => [`cookie ${name}`, value]),
      ),
      ...Object.fromEntries(
        Object.entries(jar.values())
          .filter(([name]) => name === '_session')
          .map(([name, value]) => [`cookie ${name} after resume`, value]),
      ),
    };
    expect(Object.keys(secrets)).toEqual(expect.arrayContaining(['cookie _interaction', 'cookie _session after resume']));

    const models = await oidcModelsDump();
    expect(models).toContain(registered); // the dump is real: public identifiers are there
    const everything = await databaseDump();
    for (const [name, value] of Object.entries(secrets)) {
      expect(value.length, name).toBeGreaterThanOrEqual(16);
      expect(models.includes(value), `${name} in oidc_models`).toBe(false);
      expect(everything.includes(value), `${name} somewhere in the database`).toBe(false);
    }
  });
});
