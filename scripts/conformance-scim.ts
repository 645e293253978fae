/**
 * SCIM conformance against a third-party test collection (`npm run conformance:scim -- <collection>`),
 * e.g. Microsoft's SCIM validator collection, a Postman collection run with newman.
 *
 * By default it starts the built service (`npm run build` first) on the embedded default in a scratch
 * data directory on a free port, and provisions what the collection needs through the service's own
 * API, as an admin would: an account (its e-mail code from the development mailbox), an organization,
 * and a SCIM token. With SCIM_BASE_URL and SCIM_TOKEN set, it runs against that service and token.
 *
 * The collection is read, never copied: its variables (Protocol, Server, Port, Api, token) are set to
 * the service and the issued token. Its "Get Token" folder is left out of the run: it asks the
 * validator's reference server for a token (GET /Token), which a SCIM service has no such endpoint
 * for; its requests authenticate with `{{token}}`, which this run provides. Every request's assertions are printed; the
 * requests expected to fail are listed in scripts/scim-conformance-expectations.ts with the reason
 * (also in README.md, SCIM conformance). The run fails on any other failure, and on an expected failure
 * that passes (the list is then out of date).
 */
import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import newman from 'newman';
import { api, enroll, signInWithPassword } from '../bench/support/accounts';
import { startServer, type BenchServer } from '../bench/support/server';
import { EXPECTED_FAILURES } from './scim-conformance-expectations';

interface Target {
  base: string;
  token: string;
  stop: () => void;
}

/** An organization and a SCIM token, made through the API as its owner would. */
async function provision(server: BenchServer): Promise<string> {
  const email = `conformance-${randomUUID().slice(0, 8)}@example.test`;
  const password = 'conformance runs need a long passphrase';
  await enroll(server.base, server.dataDir, email, async (token) => {
    await api(server.base, '/api/auth/enrollment/password/complete', { password }, token);
  });
  const browser = await signInWithPassword(server.base, email, password);
  const headers = { cookie: browser.cookie, 'x-csrf-token': browser.csrf };
  const organization = (await api(server.base, '/api/organizations', { name: 'SCIM conformance' }, headers)) as { id: string };
  const issued = (await api(server.base, `/api/organizations/${organization.id}/scim/tokens`, { name: 'Conformance run' }, headers)) as { token: string };
  return issued.token;
}

async function target(): Promise<Target> {
  if (process.env.SCIM_BASE_URL && process.env.SCIM_TOKEN) return { base: process.env.SCIM_BASE_URL, token: process.env.SCIM_TOKEN, stop: () => {} };
  const port = Number(execFileSync(process.execPath, ['scripts/free-port.mjs'], { encoding: 'utf8' }).trim());
  // The embedded default, in a scratch data directory: nothing to configure, the dev mailbox at hand.
  delete process.env.DATABASE_URL;
  const server = await startServer(port);
  try {
    return { base: server.base, token: await provision(server), stop: server.stop };
  } catch (error) {
    server.stop();
    throw error;
  }
}

/** The reference server's own token request: not a SCIM request, left out of the run (see above). */
const REFERENCE_SERVER_ONLY = 'Get Token';

/** The collection as read, pointed at the service, with the token its requests send. */
function prepared(collectionPath: string, base: string, token: string) {
  const collection = JSON.parse(readFileSync(collectionPath, 'utf8')) as Record<string, unknown> & { item: { name: string }[] };
  const url = new URL(base);
  collection.item = collection.item.filter((item) => item.name !== REFERENCE_SERVER_ONLY);
  console.log(`not run: "${REFERENCE_SERVER_ONLY}" (the validator's reference server's token endpoint; this run sends an issued SCIM token)`);
  collection.variable = [
    { key: 'token', value: token },
    { key: 'Protocol', value: url.protocol.replace(':', '') },
    { key: 'Server', value: url.hostname },
    { key: 'Port', value: url.port ? `:${url.port}` : '' },
    { key: 'Api', value: 'scim/v2' },
  ];
  return collection;
}

interface Outcome {
  name: string;
  status: number | null;
  failed: string[];
}

function run(collection: Record<string, unknown>): Promise<Outcome[]> {
  return new Promise((resolve, reject) => {
    const outcomes: Outcome[] = [];
    newman
      .run({ collection, reporters: [], timeoutRequest: 15_000 })
      .on('request', (_error, args) => {
        outcomes.push({ name: args.item.name, status: args.response?.code ?? null, failed: [] });
      })
      .on('assertion', (error, args) => {
        if (error) outcomes.at(-1)?.failed.push(args.assertion);
      })
      .on('done', (error) => (error ? reject(error) : resolve(outcomes)));
  });
}

async function main() {
  const collectionPath = process.argv[2];
  if (!collectionPath) throw new Error('usage: npm run conformance:scim -- <postman collection.json>');
  const service = await target();
  try {
    const outcomes = await run(prepared(collectionPath, service.base, service.token));
    const expected = new Map(EXPECTED_FAILURES.map((entry) => [entry.request, entry.reason]));
    const unexpected: string[] = [];
    const fixed = new Set(EXPECTED_FAILURES.map((entry) => entry.request));
    outcomes.forEach((outcome, index) => {
      const key = `${index + 1}. ${outcome.name}`;
      const reason = expected.get(key);
      if (outcome.failed.length === 0) {
        console.log(`pass  ${key} (${outcome.status})`);
        if (!reason) return;
        unexpected.push(`${key} passes now: remove it from the expected failures`);
        return;
      }
      fixed.delete(key);
      console.log(`FAIL  ${key} (${outcome.status}): ${outcome.failed.join('; ')}${reason ? `\n      expected: ${reason}` : ''}`);
      if (!reason) unexpected.push(`${key}: ${outcome.failed.join('; ')}`);
    });
    for (const key of fixed) if (!outcomes.some((_o, i) => `${i + 1}. ${_o.name}` === key)) unexpected.push(`${key}: not in the collection any more`);
    const failing = outcomes.filter((o) => o.failed.length > 0).length;
    console.log(
      `\n${outcomes.length} requests: ${outcomes.length - failing} passed, ${failing} failed (${EXPECTED_FAILURES.length} expected, with their reasons above)`,
    );
    if (unexpected.length > 0) {
      console.error(`\nunexpected:\n${unexpected.map((line) => `  ${line}`).join('\n')}`);
      process.exitCode = 1;
    }
  } finally {
    service.stop();
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
