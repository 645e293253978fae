/**
 * Every change made inside an organization leaves an audit event of that organization, written with
 * the change (the same request id), generated from the registry: each unsafe tenant operation is run
 * once on its success path, and the organization's audit log must then hold an event carrying the
 * request's X-Request-ID, that names the acting person and carries no secret the request held. A new
 * tenant mutation needs its success input below when `{}` is not enough (the test fails until then).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import { isUnsafe, type AnyOperation } from '@/lib/contract/operation';
import { getDb } from '@/lib/db';
import { auditEvents, organizationDomains } from '@/lib/db/schema';
import { OPERATIONS } from '@/lib/http/registry';
import { useMailbox } from '../helpers/accounts';
import { startDnsServer, type TestDnsServer } from '../helpers/federation/dns-server';
import { developerApplication, freshMember, paramsIn, verifiedDomainOf, world, type World } from '../helpers/organization-fixtures';
import { asBrowser, createOrganization, joinAs, person, type Person } from '../helpers/organizations';
import { WalkCoverage } from '../helpers/walk-coverage';
import { withEnv } from '../setup/state';

const mailbox = useMailbox({ RATE_LIMIT_SCALE: '100' });
const mutations = OPERATIONS.filter((op) => op.tenant && op.auth.kind === 'session' && isUnsafe(op.method));
const label = (op: AnyOperation) => `${op.method} ${op.path}`;
const walk = new WalkCoverage();

interface Success {
  body?: (w: World, params: Record<string, string>) => Promise<unknown> | unknown;
  /** Who makes the change, when not the owner (an approval is decided by another admin). */
  as?: (w: World) => Person;
  /** Set the scene first (not what is audited). */
  before?: (w: World, params: Record<string, string>) => Promise<void>;
  /** Another organization of the owner's to act in, when the change would end the shared one. */
  organization?: (w: World) => Promise<string>;
}

/** Who leaves in the leave walk: a fresh member, so the world's people stay for the other operations. */
let leaver: Person | null = null;

const unique = (prefix: string) => `${prefix} ${randomUUID().slice(0, 8)}`;

/** Domain verification reads DNS: a real server on loopback answers for the claims made here. */
let dnsServer: TestDnsServer;
let restoreEnv: () => void;

async function publishProof(domainId: string): Promise<void> {
  const [claim] = await (await getDb()).select().from(organizationDomains).where(eq(organizationDomains.id, domainId));
  dnsServer.setTxt(`_identity-challenge.${claim!.domain}`, [`identity-domain-verification=${claim!.verificationToken}`]);
}

const patchConnection = (w: World, params: Record<string, string>, status: string) =>
  asBrowser(w.owner.browser, 'PATCH', '/api/organizations/{id}/federation/connections/{connection_id}', {
    params,
    body: { status },
    headers: { 'idempotency-key': randomUUID() },
  });

/** The success input of each tenant mutation whose body `{}` would not do. */
const SUCCESS: Record<string, Success> = {
  updateOrganization: { body: () => ({ name: unique('Renamed') }) },
  updateOrganizationMember: { body: () => ({ status: 'suspended' }) },
  createOrganizationInvitation: { body: () => ({ email: `${randomUUID().slice(0, 8)}@invitee.example.test`, role: 'member' }) },
  createOrganizationGroup: { body: () => ({ name: unique('Group') }) },
  renameOrganizationGroup: { body: () => ({ name: unique('Renamed group') }) },
  addOrganizationGroupMember: { body: async (w) => ({ membership_id: await freshMember(w) }) },
  createOrganizationRole: { body: () => ({ name: unique('Role'), permissions: ['groups.manage'] }) },
  updateOrganizationRole: { body: () => ({ description: 'Changed' }) },
  createOrganizationDelegatedAdmin: { body: async (w) => ({ membership_id: await freshMember(w), permissions: ['groups.manage'] }) },
  assignOrganizationApplication: { body: async (w) => ({ client_id: (await developerApplication(w)).client_id }) },
  setOrganizationPolicy: { body: () => ({ policy_key: 'session.idle_timeout_seconds', value: 7200 }) },
  updateOrganizationPolicy: {
    before: async (w) => {
      await asBrowser(w.owner.browser, 'POST', '/api/organizations/{id}/policies', {
        params: { id: w.id },
        body: { policy_key: 'step_up.max_age_seconds', value: 300 },
      });
    },
    body: () => ({ policy_key: 'step_up.max_age_seconds', value: 240 }),
  },
  requestOrganizationApproval: { body: () => ({ action: 'policies.delete', target: 'session.binding', reason: 'Audit contract' }) },
  // The fixture approval was requested by the owner: another admin decides it.
  decideOrganizationApproval: { body: () => ({ decision: 'approve' }), as: (w) => w.admin },
  leaveOrganization: {
    before: async (w) => {
      leaver = await person(w.mailbox, 'leaver');
      await joinAs(w.id, leaver.userId, 'member');
    },
    as: () => leaver!,
  },
  deleteOrganization: { organization: (w) => createOrganization(w.owner, 'Doomed'), body: () => ({ confirm_name: 'Doomed' }) },
  registerOrganizationDomain: { body: () => ({ domain: `audit-${randomUUID().slice(0, 8)}.test` }) },
  verifyOrganizationDomain: { before: (_w, params) => publishProof(params.domain_id!) },
  registerFederationConnection: {
    body: async (w) => ({
      connection_id: `audit-${randomUUID().slice(0, 8)}`,
      protocol: 'oidc',
      display_name: 'Audit IdP',
      issuer: 'https://idp.example.test',
      client_id: 'audit-client',
      client_secret: 'audit-secret',
      domains: [await verifiedDomainOf(w)],
    }),
  },
  issueScimToken: { body: () => ({ name: unique('Directory') }) },
  // Disabling needs no provider (activation's validation is the federation tests' business).
  changeFederationConnection: { body: () => ({ status: 'disabled' }) },
  deleteFederationConnection: {
    before: async (w, params) => {
      await patchConnection(w, params, 'disabled');
    },
  },
  registerOrganizationAgentAction: {
    body: () => ({ name: `action.${randomUUID().slice(0, 8)}`, description: 'Audit contract', input_schema: { type: 'object' }, risk_level: 'low' }),
  },
};

let org: World;
beforeAll(async () => {
  dnsServer = await startDnsServer();
  restoreEnv = withEnv({ DNS_SERVERS: dnsServer.address });
  org = await world(mailbox, 'audit');
});
afterAll(async () => {
  restoreEnv();
  await dnsServer.close();
});

describe('tenant mutations are audited (generated from the registry)', () => {
  it('has tenant mutations to walk', () => {
    expect(mutations.length).toBeGreaterThan(10);
  });

  it.each(mutations.map((op) => [label(op), op] as const))('%s writes an audit event of the organization with the change', async (_label, op) => {
    walk.record(op);
    const success = SUCCESS[op.id] ?? {};
    const params = await paramsIn(org, op);
    if (success.organization) params.id = await success.organization(org);
    await success.before?.(org, params);
    const actor = success.as?.(org) ?? org.owner;
    const response = await asBrowser(actor.browser, op.method, op.path, {
      params,
      body: op.method === 'DELETE' && !success.body ? undefined : ((await success.body?.(org, params)) ?? {}),
      headers: op.idempotency === 'required' ? { 'idempotency-key': randomUUID() } : {},
    });
    expect(response.status, `${label(op)}: ${await response.clone().text()}`).toBeLessThan(300);
    const requestId = response.headers.get('x-request-id')!;
    const written = await (
      await getDb()
    )
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.organizationId, params.id!), eq(auditEvents.requestId, requestId)));
    expect(written.length, 'audit events with the request id').toBeGreaterThan(0);
    for (const event of written) {
      expect(event).toMatchObject({ outcome: 'success', actorType: 'session', actorId: actor.userId });
      // Never a credential: the session cookie and CSRF token of the request appear nowhere in it.
      const text = JSON.stringify(event);
      for (const secret of [actor.browser.cookie.split('=')[1]!, actor.browser.csrf]) expect(text).not.toContain(secret);
    }
  });
});

describe('the walk', () => {
  it('ran every tenant mutation of the registry', () => {
    expect(walk.gaps(mutations)).toEqual({ notRun: [], unexpected: [] });
  });
});
