/**
 * OAuth benchmark (not part of CI): the token endpoint (refresh grant, rotating) and userinfo through
 * the built app (the front door's protocol lane, the pipeline, the provider writing to Node's response) side by side
 * with a bare node-oidc-provider of the same configuration on the same Postgres adapter (bench/support/
 * bare-provider.ts), in alternating rounds: authorization-code redemption (PKCE), refresh and userinfo.
 * Prints throughput, p50/p99 and the ratios (goal for refresh, userinfo and client credentials: at least 0.9 of bare). Beside them, our own bearer surface on the app alone,
 * `GET /api/v1/me` with the same access token (the token, its grant and the account are read), against
 * the app's userinfo: what our bearer check costs next to the provider's own. Client credentials
 * (issue 23): a confidential client with machine access to a developer's API gets RFC 9068 JWTs; and
 * what verifying one costs a resource server (jose, local JWKS: no call to us).
 *
 *   npm run build && npx tsx bench/oauth.ts     (BENCH_SECONDS, BENCH_CONNECTIONS, BENCH_ROUNDS, BENCH_PG_URL)
 *
 * Refresh tokens and codes are single use (a reused one revokes its family), so every request of the
 * token benchmarks presents a fresh one from a pool minted beforehand with the provider's own models.
 * Both targets run `createProvider` on the same database, so the bench process mints the tokens of
 * both with one instance (issuer: the app's URL); opaque tokens are found by id and carry no issuer,
 * and both targets are checked to answer 200 before anything is measured. Non-2xx answers and
 * timeouts count as errors; any error fails the run (exit code 1).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import postgres from 'postgres';
import { startServer } from './support/server';
import { summarise, toSample, type Sample } from './support/samples';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432';
const APP = 'http://localhost:3400';
const BARE = 'http://localhost:3401';
const SCOPE = 'openid offline_access identity.profile.read';

async function waitFor(url: string) {
  for (let i = 0; i < 120; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`${url} did not come up`);
}

async function main() {
  const database = `bench_oauth_${Date.now()}`;
  const admin = postgres(`${PG_URL}/postgres`, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${database}`);
  const env = {
    DATABASE_URL: `${PG_URL}/${database}`,
    SESSION_SECRET: randomBytes(32).toString('base64'),
    PASSWORD_PEPPER: randomBytes(32).toString('base64'),
    DATA_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    RATE_LIMIT_SCALE: '100',
  };
  const children: (() => void)[] = [];
  try {
    const app = await startServer(3400, env);
    children.push(app.stop);
    Object.assign(process.env, env, { BASE_URL: APP });
    const bare: ChildProcess = spawn('npx', ['tsx', 'bench/support/bare-provider.ts'], {
      env: { ...process.env, ...env, BASE_URL: BARE },
      stdio: 'ignore',
      detached: true,
    });
    children.push(() => process.kill(-bare.pid!, 'SIGTERM'));
    await waitFor(`${BARE}/.well-known/openid-configuration`);

    // Loaded only now: configuration is read from the environment set above.
    const { getDb } = await import('@/lib/db');
    const { users } = await import('@/lib/db/schema');
    const { createProvider } = await import('@/lib/oidc/provider');
    const provider = await createProvider();

    const userId = randomUUID();
    const now = new Date();
    await (
      await getDb()
    )
      .insert(users)
      .values({ id: userId, email: 'bench@example.test', emailVerifiedAt: now, createdAt: now, updatedAt: now, displayName: 'Bench' });
    const registration = await fetch(`${APP}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        application_type: 'native',
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        redirect_uris: ['http://127.0.0.1:50000/cb'],
      }),
    });
    const clientId = ((await registration.json()) as { client_id: string }).client_id;
    const client = (await provider.Client.find(clientId))!;
    const grant = new provider.Grant({ accountId: userId, clientId });
    grant.addOIDCScope(SCOPE);
    const grantId = await grant.save();
    const authTime = Math.floor(Date.now() / 1000);

    const mintRefreshTokens = async (count: number) => {
      const tokens: string[] = [];
      for (let i = 0; i < count; i++) {
        const token = new provider.RefreshToken({
          accountId: userId,
          client,
          grantId,
          gty: 'authorization_code',
          scope: SCOPE,
          rotations: 0,
          authTime,
          expiresWithSession: false,
        });
        tokens.push(await token.save());
      }
      return tokens;
    };
    // Authorization codes bound to a PKCE challenge, redeemed as the client would after consent.
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const REDIRECT = 'http://127.0.0.1:50000/cb';
    const mintCodes = async (count: number) => {
      const codes: string[] = [];
      for (let i = 0; i < count; i++) {
        const code = new provider.AuthorizationCode({
          accountId: userId,
          client,
          grantId,
          scope: SCOPE,
          redirectUri: REDIRECT,
          codeChallenge: challenge,
          codeChallengeMethod: 'S256',
          gty: 'authorization_code',
          authTime,
          expiresWithSession: false,
        });
        codes.push(await code.save());
      }
      return codes;
    };
    const accessToken = await new provider.AccessToken({ accountId: userId, client, grantId, gty: 'authorization_code', scope: SCOPE, expiresIn: 3600 }).save();

    // A developer's API and a confidential client with machine access to it (what the portal writes).
    const { hashClientSecret, writeApiResourceServer, writePortalClient } = await import('@/lib/oidc');
    const MACHINE_CLIENT = 'bench-machine-client';
    const MACHINE_SECRET = randomBytes(32).toString('base64url');
    const BENCH_API = 'https://bench-api.example.test/v1';
    const db = await getDb();
    await writePortalClient(db, {
      clientId: MACHINE_CLIENT,
      name: 'Bench machine client',
      clientType: 'confidential',
      redirectUris: ['https://bench.example.test/callback'],
      grantTypes: ['authorization_code'],
      approvedScopes: ['openid'],
      secretHash: hashClientSecret(MACHINE_SECRET),
    });
    await writeApiResourceServer(db, {
      identifier: BENCH_API,
      name: 'Bench API',
      permissions: [{ name: 'bench:read', description: 'Read the bench' }],
      accessTokenTtlSeconds: 600,
      machineAccess: { [MACHINE_CLIENT]: ['bench:read'] },
      resourceServerClientId: null,
    });
    const machineRequest = {
      method: 'POST' as const,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${MACHINE_CLIENT}:${MACHINE_SECRET}`).toString('base64')}`,
      },
      body: new URLSearchParams({ grant_type: 'client_credentials', resource: BENCH_API, scope: 'bench:read' }).toString(),
    };

    // A fixed amount of requests (one per pooled token), so the run ends when the pool is spent.
    // autocannon's requests.average would count the last, partial second as a whole one (up to a
    // quarter too low on a 3 s run): throughput is completed requests over the time to the last answer.
    const tokenRun = (base: string, pool: string[], form: (value: string) => Record<string, string>) =>
      new Promise<Sample>((resolve, reject) => {
        const started = performance.now();
        let last = started;
        const instance = autocannon(
          {
            url: base,
            connections: CONNECTIONS,
            amount: pool.length,
            requests: [
              {
                method: 'POST',
                path: '/oauth/token',
                headers: { 'content-type': 'application/x-www-form-urlencoded' },
                // Called exactly once per request sent; a spent pool would send "undefined" (a 400, counted).
                setupRequest: (request) => ({ ...request, body: new URLSearchParams(form(pool.pop()!)).toString() }),
              },
            ],
          },
          (error, result) => (error ? reject(error) : resolve({ ...toSample(result), rps: result.requests.total / ((last - started) / 1000) })),
        );
        instance.on('response', () => {
          last = performance.now();
        });
      });
    const refreshForm = (refresh_token: string) => ({ grant_type: 'refresh_token', refresh_token, client_id: clientId });
    const codeForm = (code: string) => ({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier, client_id: clientId });
    const refreshRun = (base: string, pool: string[]) => tokenRun(base, pool, refreshForm);
    const codeRun = (base: string, pool: string[]) => tokenRun(base, pool, codeForm);
    const bearerRun = async (url: string, seconds: number) =>
      toSample(await autocannon({ url, connections: CONNECTIONS, duration: seconds, headers: { authorization: `Bearer ${accessToken}` } }));
    const userinfoRun = (base: string, seconds: number) => bearerRun(`${base}/oauth/userinfo`, seconds);
    const meRun = (seconds: number) => bearerRun(`${APP}/api/v1/me`, seconds);
    // Machine tokens are not single use: the same request, over and over, for the run's duration.
    const machineRun = async (base: string, seconds: number) =>
      toSample(await autocannon({ url: `${base}/oauth/token`, connections: CONNECTIONS, duration: seconds, ...machineRequest }));

    // Check both targets answer correctly before measuring anything.
    for (const base of [APP, BARE]) {
      const [refresh] = await mintRefreshTokens(1);
      const answer = await fetch(`${base}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refresh!, client_id: clientId }),
      });
      if (answer.status !== 200) throw new Error(`${base} refresh: ${answer.status} ${await answer.text()}`);
      const [code] = await mintCodes(1);
      const redeemed = await fetch(`${base}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(codeForm(code!)),
      });
      if (redeemed.status !== 200) throw new Error(`${base} code: ${redeemed.status} ${await redeemed.text()}`);
      const info = await fetch(`${base}/oauth/userinfo`, { headers: { authorization: `Bearer ${accessToken}` } });
      if (info.status !== 200) throw new Error(`${base} userinfo: ${info.status} ${await info.text()}`);
      const machine = await fetch(`${base}/oauth/token`, machineRequest);
      if (machine.status !== 200) throw new Error(`${base} client credentials: ${machine.status} ${await machine.text()}`);
    }
    const me = await fetch(`${APP}/api/v1/me`, { headers: { authorization: `Bearer ${accessToken}` } });
    if (me.status !== 200) throw new Error(`/api/v1/me: ${me.status} ${await me.text()}`);

    // Size the refresh pools from a short warm-up on each target (JIT, connection pools).
    const warm = { app: await refreshRun(APP, await mintRefreshTokens(300)), bare: await refreshRun(BARE, await mintRefreshTokens(300)) };
    const warmCodes = { app: await codeRun(APP, await mintCodes(300)), bare: await codeRun(BARE, await mintCodes(300)) };
    await userinfoRun(APP, 2);
    await userinfoRun(BARE, 2);
    await meRun(2);
    await machineRun(APP, 2);
    await machineRun(BARE, 2);
    const poolSize = (rps: number) => Math.max(200, Math.round(rps * SECONDS));

    const samples = {
      code: { app: [] as Sample[], bare: [] as Sample[] },
      refresh: { app: [] as Sample[], bare: [] as Sample[] },
      userinfo: { app: [] as Sample[], bare: [] as Sample[] },
      machine: { app: [] as Sample[], bare: [] as Sample[] },
      me: [] as Sample[],
    };
    for (let round = 0; round < ROUNDS; round++) {
      samples.code.bare.push(await codeRun(BARE, await mintCodes(poolSize(warmCodes.bare.rps))));
      samples.code.app.push(await codeRun(APP, await mintCodes(poolSize(warmCodes.app.rps))));
      samples.refresh.bare.push(await refreshRun(BARE, await mintRefreshTokens(poolSize(warm.bare.rps))));
      samples.refresh.app.push(await refreshRun(APP, await mintRefreshTokens(poolSize(warm.app.rps))));
      samples.userinfo.bare.push(await userinfoRun(BARE, SECONDS));
      samples.userinfo.app.push(await userinfoRun(APP, SECONDS));
      samples.me.push(await meRun(SECONDS));
      samples.machine.bare.push(await machineRun(BARE, SECONDS));
      samples.machine.app.push(await machineRun(APP, SECONDS));
    }

    console.log(`OAuth endpoints, ${CONNECTIONS} connections, ${ROUNDS} rounds of about ${SECONDS}s each (medians; latency in ms)`);
    const TITLES = {
      code: 'POST /oauth/token (grant_type=authorization_code, PKCE): report p50 and p99',
      refresh: 'POST /oauth/token (grant_type=refresh_token, rotating)',
      userinfo: 'GET /oauth/userinfo',
      machine: 'POST /oauth/token (grant_type=client_credentials, a JWT for a developer API)',
    };
    // The goal for refresh and userinfo (issue 22) and client credentials (issue 23); code redemption is reported, not gated.
    const GOAL = 0.9;
    for (const endpoint of ['code', 'refresh', 'userinfo', 'machine'] as const) {
      const appSample = summarise(samples[endpoint].app);
      const bareSample = summarise(samples[endpoint].bare);
      console.log(`\n${TITLES[endpoint]}`);
      const shown = (s: Sample) => ({ ...s, rps: Math.round(s.rps * 10) / 10 });
      console.table({ bare: shown(bareSample), app: shown(appSample) });
      const ratio = appSample.rps / bareSample.rps;
      const verdict = endpoint === 'code' ? '' : ` (goal >= ${GOAL}: ${ratio >= GOAL ? 'met' : 'NOT met'})`;
      console.log(`throughput app/bare: ${ratio.toFixed(3)}${verdict}; p50 app/bare: ${(appSample.p50 / bareSample.p50).toFixed(2)}`);
      if (appSample.errors + bareSample.errors > 0) {
        // Errors (non-2xx, timeouts) make the figures meaningless: say so and fail the run.
        console.error(`${endpoint}: ${appSample.errors} app and ${bareSample.errors} bare errors (expected 0)`);
        process.exitCode = 1;
      }
    }
    await reportJwtVerification(APP, machineRequest);
    const meSample = summarise(samples.me);
    const appUserinfo = summarise(samples.userinfo.app);
    console.log("\nGET /api/v1/me on the app (our bearer check), against the app's userinfo");
    console.table({ 'app userinfo': appUserinfo, 'app /api/v1/me': meSample });
    console.log(`throughput /api/v1/me / userinfo: ${(meSample.rps / appUserinfo.rps).toFixed(3)}; p50: ${(meSample.p50 / appUserinfo.p50).toFixed(2)}`);
    if (meSample.errors > 0) {
      console.error(`/api/v1/me: ${meSample.errors} errors (expected 0)`);
      process.exitCode = 1;
    }
  } finally {
    for (const stop of children.reverse()) {
      try {
        stop();
      } catch {
        // already gone
      }
    }
    await new Promise((r) => setTimeout(r, 1000));
    await admin.unsafe(`drop database if exists ${database} with (force)`);
    await admin.end();
  }
}

/**
 * What a resource server pays to check one of our JWTs itself: jose's jwtVerify (signature, issuer,
 * audience, type, expiry) against the JWKS fetched once, in this process, with no call to us.
 */
async function reportJwtVerification(base: string, machineRequest: RequestInit) {
  const { createLocalJWKSet, jwtVerify } = await import('jose');
  const token = ((await (await fetch(`${base}/oauth/token`, machineRequest)).json()) as { access_token: string }).access_token;
  const jwks = createLocalJWKSet(await (await fetch(`${base}/.well-known/jwks.json`)).json());
  const audience = new URLSearchParams(String(machineRequest.body)).get('resource')!;
  const verify = () => jwtVerify(token, jwks, { issuer: base, audience, typ: 'at+jwt' });
  for (let i = 0; i < 500; i++) await verify();
  const COUNT = 5_000;
  const started = performance.now();
  for (let i = 0; i < COUNT; i++) await verify();
  const micros = ((performance.now() - started) * 1000) / COUNT;
  console.log(
    `\nJWT access token verification at a resource server (jose, RS256, local JWKS): ${micros.toFixed(0)} us each, ${Math.round(1e6 / micros)} per second on one core`,
  );
}

main().then(
  // The database pools of this process would keep it alive.
  () => process.exit(), // with process.exitCode
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
