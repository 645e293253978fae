/**
 * Declared events against the outbox. Every operation that declares `emits` is run here, through the
 * real pipeline, on the path where it emits the most; the outbox rows it wrote must be exactly its
 * declaration. (Writing an undeclared event is refused at run time, so every other integration test
 * checks the other direction on whatever path it takes.) A new operation with `emits` needs a
 * scenario below, or the first test fails.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { type AnyOperation, bindResource } from '@/lib/contract/operation';
import { resourceContract } from '@/lib/contract/wire';
import { getDb } from '@/lib/db';
import { outboxEvents, scimUsers } from '@/lib/db/schema';
import { eq } from 'drizzle-orm';
import { emitEvent, EVENT_TYPES, INTERNAL_EVENTS } from '@/lib/events';
import { OPERATIONS } from '@/lib/http/registry';
import { as, passkeyOptions, post, signInWithPassword, signUpWithPassword, useMailbox, verifiedEnrollment, verifiedRecovery } from '../helpers/accounts';
import { call, operation, ORIGIN, problemOf } from '../helpers/http';
import { API_RESOURCES, createApiResource, freshIdentifier, MACHINE_ACCESS, ONE_API_RESOURCE } from '../helpers/api-resources';
import { APPLICATIONS, createApplication, ONE_APPLICATION } from '../helpers/applications';
import { mintAccessToken } from '../helpers/oauth';
import { provableDomain, returnFromProvider, samlResponseReady, sceneConnection } from '../helpers/federation/scene';
import { asBrowser, createOrganization, invite, joinAs } from '../helpers/organizations';
import { directory, patchOp, provision, userBody } from '../helpers/scim';
import { SoftAuthenticator } from '../helpers/soft-authenticator';
import { WalkCoverage } from '../helpers/walk-coverage';

const mailbox = useMailbox({ RATE_LIMIT_SCALE: '50', SAML_ENABLED: 'true' });
const PASSWORD = 'a long and unusual passphrase 42';
let accounts = 0;
const address = () => `events-${(accounts += 1)}@example.test`;

async function passwordAccount() {
  const email = address();
  const userId = await signUpWithPassword(mailbox, email, PASSWORD);
  // A password sign-in is also a fresh step-up.
  return { email, userId, browser: await signInWithPassword(email, PASSWORD) };
}

type Act = () => Promise<Response>;

/** An organization owned by a fresh account, with one group (and, when asked, a member in it). */
async function organizationWithGroup(options: { member?: boolean } = {}) {
  const owner = await passwordAccount();
  const id = await createOrganization(owner);
  const group = (await (await asBrowser(owner.browser, 'POST', '/api/organizations/{id}/groups', { params: { id }, body: { name: 'Team' } })).json()) as {
    id: string;
  };
  const membershipId = await joinAs(id, (await passwordAccount()).userId, 'member');
  if (options.member)
    await asBrowser(owner.browser, 'POST', '/api/organizations/{id}/groups/{group_id}/members', {
      params: { id, group_id: group.id },
      body: { membership_id: membershipId },
    });
  return { owner, id, groupId: group.id, membershipId };
}

async function organizationWithRole() {
  const owner = await passwordAccount();
  const id = await createOrganization(owner);
  const role = (await (
    await asBrowser(owner.browser, 'POST', '/api/organizations/{id}/roles', { params: { id }, body: { name: 'Auditor', permissions: ['audit.read'] } })
  ).json()) as { id: string };
  return { owner, id, roleId: role.id };
}
/**
 * Per operation: set the scene (not counted), then return the request under test, or the requests
 * whose events together make its declaration (an operation whose outcomes exclude one another, such
 * as activating and disabling a connection, declares the event of each).
 */
const SCENARIOS: Record<string, () => Promise<Act | Act[]>> = {
  completePasswordEnrollment: async () => {
    const token = await verifiedEnrollment(mailbox, address());
    return () => post('/api/auth/enrollment/password/complete', { password: PASSWORD }, { headers: token });
  },
  completePasskeyEnrollment: async () => {
    const token = await verifiedEnrollment(mailbox, address());
    const { options, challenge_id } = await passkeyOptions('/api/auth/enrollment/passkey/options', token);
    return () => post('/api/auth/enrollment/passkey/complete', { challenge_id, credential: new SoftAuthenticator(ORIGIN).create(options) }, { headers: token });
  },
  completePasswordRecovery: async () => {
    const { email } = await passwordAccount();
    const token = await verifiedRecovery(mailbox, email);
    return () => post('/api/auth/recovery/password/complete', { password: `${PASSWORD} renewed` }, { headers: token });
  },
  completePasskeyRecovery: async () => {
    const { email } = await passwordAccount();
    const token = await verifiedRecovery(mailbox, email);
    const { options, challenge_id } = await passkeyOptions('/api/auth/recovery/passkey/options', token);
    return () => post('/api/auth/recovery/passkey/complete', { challenge_id, credential: new SoftAuthenticator(ORIGIN).create(options) }, { headers: token });
  },
  addPasskey: async () => {
    const { browser } = await passwordAccount();
    const { options, challenge_id } = await passkeyOptions('/api/auth/passkeys/options', as(browser));
    return () => post('/api/auth/passkeys', { challenge_id, credential: new SoftAuthenticator(ORIGIN).create(options) }, { headers: as(browser) });
  },
  removePasskey: async () => {
    const { browser } = await passwordAccount();
    const { options, challenge_id } = await passkeyOptions('/api/auth/passkeys/options', as(browser));
    const added = await post('/api/auth/passkeys', { challenge_id, credential: new SoftAuthenticator(ORIGIN).create(options) }, { headers: as(browser) });
    const { id } = (await added.json()) as { id: string };
    return () => call(operation('DELETE', '/api/auth/passkeys/{passkey_id}'), { params: { passkey_id: id }, headers: { origin: ORIGIN, ...as(browser) } });
  },
  changePassword: async () => {
    const { email, browser } = await passwordAccount();
    await signInWithPassword(email, PASSWORD); // another session, signed out by the change
    return () => post('/api/auth/password/change', { current_password: PASSWORD, new_password: `${PASSWORD} changed` }, { headers: as(browser) });
  },
  revokeSession: async () => {
    const { email, browser } = await passwordAccount();
    const other = await signInWithPassword(email, PASSWORD);
    return () => post('/api/auth/sessions/revoke', { session_id: other.sessionId }, { headers: as(browser) });
  },
  revokeOtherSessions: async () => {
    const { email, browser } = await passwordAccount();
    await signInWithPassword(email, PASSWORD);
    return () => post('/api/auth/sessions/revoke-others', {}, { headers: as(browser) });
  },
  // A sign-in ends the session the browser presents (here the same account's).
  signInWithPassword: async () => {
    const { email, browser } = await passwordAccount();
    return () => post('/api/auth/signin/password', { email, password: PASSWORD }, { headers: { cookie: browser.cookie } });
  },
  completeEmailCodeSignIn: async () => {
    const { email, browser } = await passwordAccount();
    const { challenge_id } = (await (await post('/api/auth/signin/email-otp/start', { email })).json()) as { challenge_id: string };
    return () => post('/api/auth/signin/email-otp/complete', { challenge_id, code: mailbox.codeFor(email) }, { headers: { cookie: browser.cookie } });
  },
  signInWithPasskey: async () => {
    const { browser } = await passwordAccount();
    const authenticator = new SoftAuthenticator(ORIGIN);
    const { options, challenge_id } = await passkeyOptions('/api/auth/passkeys/options', as(browser));
    await post('/api/auth/passkeys', { challenge_id, credential: authenticator.create(options) }, { headers: as(browser) });
    const signIn = await passkeyOptions('/api/auth/signin/passkey/options', {});
    return () =>
      post(
        '/api/auth/signin/passkey/complete',
        { challenge_id: signIn.challenge_id, credential: authenticator.get(signIn.options) },
        { headers: { cookie: browser.cookie } },
      );
  },
  updateOwnProfile: async () => {
    const { browser } = await passwordAccount();
    return () => call(operation('PATCH', '/api/auth/profile'), { headers: { origin: ORIGIN, ...as(browser) }, body: { display_name: 'Renamed' } });
  },
  createOrganization: async () => {
    const { browser } = await passwordAccount();
    return () => post('/api/organizations', { name: 'Events Org' }, { headers: as(browser) });
  },
  updateOrganizationMember: async () => {
    const owner = await passwordAccount();
    const bob = await passwordAccount();
    const id = await createOrganization(owner);
    const memberId = await joinAs(id, bob.userId, 'member');
    return () =>
      asBrowser(owner.browser, 'PATCH', '/api/organizations/{id}/members/{member_id}', { params: { id, member_id: memberId }, body: { status: 'suspended' } });
  },
  revokeOrganizationMember: async () => {
    const owner = await passwordAccount();
    const bob = await passwordAccount();
    const id = await createOrganization(owner);
    const memberId = await joinAs(id, bob.userId, 'member');
    return () => asBrowser(owner.browser, 'DELETE', '/api/organizations/{id}/members/{member_id}', { params: { id, member_id: memberId } });
  },
  leaveOrganization: async () => {
    const owner = await passwordAccount();
    const bob = await passwordAccount();
    const id = await createOrganization(owner);
    await joinAs(id, bob.userId, 'member');
    return () => asBrowser(bob.browser, 'POST', '/api/organizations/{id}/leave', { params: { id }, body: {} });
  },
  createOrganizationInvitation: async () => {
    const owner = await passwordAccount();
    const id = await createOrganization(owner);
    return () => asBrowser(owner.browser, 'POST', '/api/organizations/{id}/invitations', { params: { id }, body: { email: address(), role: 'member' } });
  },
  acceptOrganizationInvitation: async () => {
    const owner = await passwordAccount();
    const bob = await passwordAccount();
    const id = await createOrganization(owner);
    const { token } = await invite(owner, id, bob.email, 'member', mailbox);
    return () => post('/api/organizations/invitations/accept', { token }, { headers: as(bob.browser) });
  },
  createOrganizationGroup: async () => {
    const owner = await passwordAccount();
    const id = await createOrganization(owner);
    return () => asBrowser(owner.browser, 'POST', '/api/organizations/{id}/groups', { params: { id }, body: { name: 'Team' } });
  },
  renameOrganizationGroup: async () => {
    const { owner, id, groupId } = await organizationWithGroup();
    return () =>
      asBrowser(owner.browser, 'PATCH', '/api/organizations/{id}/groups/{group_id}', { params: { id, group_id: groupId }, body: { name: 'Renamed' } });
  },
  deleteOrganizationGroup: async () => {
    const { owner, id, groupId } = await organizationWithGroup();
    return () => asBrowser(owner.browser, 'DELETE', '/api/organizations/{id}/groups/{group_id}', { params: { id, group_id: groupId } });
  },
  addOrganizationGroupMember: async () => {
    const { owner, id, groupId, membershipId } = await organizationWithGroup();
    return () =>
      asBrowser(owner.browser, 'POST', '/api/organizations/{id}/groups/{group_id}/members', {
        params: { id, group_id: groupId },
        body: { membership_id: membershipId },
      });
  },
  removeOrganizationGroupMember: async () => {
    const { owner, id, groupId, membershipId } = await organizationWithGroup({ member: true });
    return () =>
      asBrowser(owner.browser, 'DELETE', '/api/organizations/{id}/groups/{group_id}/members/{membership_id}', {
        params: { id, group_id: groupId, membership_id: membershipId },
      });
  },
  createOrganizationRole: async () => {
    const owner = await passwordAccount();
    const id = await createOrganization(owner);
    return () => asBrowser(owner.browser, 'POST', '/api/organizations/{id}/roles', { params: { id }, body: { name: 'Auditor', permissions: ['audit.read'] } });
  },
  updateOrganizationRole: async () => {
    const { owner, id, roleId } = await organizationWithRole();
    return () =>
      asBrowser(owner.browser, 'PATCH', '/api/organizations/{id}/roles/{role_id}', { params: { id, role_id: roleId }, body: { description: 'Reads the log' } });
  },
  deleteOrganizationRole: async () => {
    const { owner, id, roleId } = await organizationWithRole();
    return () => asBrowser(owner.browser, 'DELETE', '/api/organizations/{id}/roles/{role_id}', { params: { id, role_id: roleId } });
  },
  updateMe: async () => {
    const { userId } = await passwordAccount();
    const { value } = await mintAccessToken(userId, 'identity.profile.write');
    return () =>
      call(operation('PATCH', '/api/v1/me'), {
        headers: { authorization: `Bearer ${value}`, 'idempotency-key': `events-${userId}` },
        body: { display_name: 'Renamed' },
      });
  },
  createApiKey: async () => {
    const { browser } = await passwordAccount();
    return () => asBrowser(browser, 'POST', '/api/developer/api-keys', { body: { name: 'CI', scopes: ['identity.developer.read'] } });
  },
  revokeApiKey: async () => {
    const { browser } = await passwordAccount();
    const key = (await (await asBrowser(browser, 'POST', '/api/developer/api-keys', { body: { name: 'CI', scopes: ['identity.developer.read'] } })).json()) as {
      id: string;
    };
    return () => asBrowser(browser, 'POST', '/api/developer/api-keys/revoke', { body: { api_key_id: key.id } });
  },
  mcp: async () => {
    const { userId } = await passwordAccount();
    const { value } = await mintAccessToken(userId, 'identity.api_keys.create', { audience: `${ORIGIN}/mcp` });
    const createKey = {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'create_api_key', arguments: { name: 'Agent', scopes: ['identity.developer.read'] } },
    };
    return () =>
      call(operation('POST', '/mcp'), { headers: { authorization: `Bearer ${value}`, accept: 'application/json, text/event-stream' }, body: createKey });
  },
  revokeConsent: async () => {
    const { userId, browser } = await passwordAccount();
    const { value, token } = await mintAccessToken(userId, 'identity.api_keys.create', { audience: `${ORIGIN}/mcp` });
    const createKey = {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'create_api_key', arguments: { name: 'Agent', scopes: ['identity.developer.read'] } },
    };
    await call(operation('POST', '/mcp'), { headers: { authorization: `Bearer ${value}`, accept: 'application/json, text/event-stream' }, body: createKey });
    // The agent's key is revoked with the consent it was created under.
    return () => asBrowser(browser, 'POST', '/api/auth/consents/revoke', { body: { grant_id: token.grantId } });
  },
  createApplication: async () => {
    const { browser } = await passwordAccount();
    return () =>
      asBrowser(browser, 'POST', APPLICATIONS, {
        body: { name: 'App', client_type: 'confidential', redirect_uris: ['https://app.example/cb'], scopes: ['openid'] },
      });
  },
  updateApplication: async () => {
    const developer = await passwordAccount();
    const app = await createApplication(developer);
    return () => asBrowser(developer.browser, 'PATCH', ONE_APPLICATION, { params: { application_id: app.id }, body: { name: 'Renamed' } });
  },
  disableApplication: async () => {
    const developer = await passwordAccount();
    const app = await createApplication(developer);
    return () => asBrowser(developer.browser, 'DELETE', ONE_APPLICATION, { params: { application_id: app.id } });
  },
  rotateApplicationSecret: async () => {
    const developer = await passwordAccount();
    const app = await createApplication(developer);
    return () => asBrowser(developer.browser, 'POST', `${ONE_APPLICATION}/rotate-secret`, { params: { application_id: app.id } });
  },
  createBearerApplication: async () => {
    const { browser } = await passwordAccount();
    const key = (await (
      await asBrowser(browser, 'POST', '/api/developer/api-keys', { body: { name: 'CI', scopes: ['identity.applications.manage'] } })
    ).json()) as { api_key: string };
    return () =>
      call(operation('POST', '/api/v1/developer/applications'), {
        body: { name: 'App', client_type: 'public', redirect_uris: ['https://app.example/cb'], scopes: ['openid'] },
        headers: { authorization: `Bearer ${key.api_key}`, 'idempotency-key': randomUUID() },
      });
  },
  createApiResource: async () => {
    const { browser } = await passwordAccount();
    return () => asBrowser(browser, 'POST', API_RESOURCES, { body: { identifier: freshIdentifier(), name: 'API', permissions: [] } });
  },
  updateApiResource: async () => {
    const developer = await passwordAccount();
    const api = await createApiResource(developer);
    return () => asBrowser(developer.browser, 'PATCH', ONE_API_RESOURCE, { params: { api_resource_id: api.id }, body: { name: 'Renamed' } });
  },
  deleteApiResource: async () => {
    const developer = await passwordAccount();
    const api = await createApiResource(developer);
    return () => asBrowser(developer.browser, 'DELETE', ONE_API_RESOURCE, { params: { api_resource_id: api.id } });
  },
  setMachineAccess: async () => {
    const developer = await passwordAccount();
    const api = await createApiResource(developer);
    const app = await createApplication(developer);
    return () =>
      asBrowser(developer.browser, 'PUT', MACHINE_ACCESS, {
        params: { api_resource_id: api.id },
        body: { client_id: app.client_id, permissions: ['invoices:read'] },
      });
  },
  createBearerApiResource: async () => {
    const { browser } = await passwordAccount();
    const key = (await (
      await asBrowser(browser, 'POST', '/api/developer/api-keys', { body: { name: 'CI', scopes: ['identity.applications.manage'] } })
    ).json()) as { api_key: string };
    return () =>
      call(operation('POST', '/api/v1/developer/api-resources'), {
        body: { identifier: freshIdentifier(), name: 'API', permissions: [] },
        headers: { authorization: `Bearer ${key.api_key}`, 'idempotency-key': randomUUID() },
      });
  },
  verifyOrganizationDomain: async () => {
    const owner = await passwordAccount();
    const id = await createOrganization(owner);
    const claim = await provableDomain(owner, id);
    return () => asBrowser(owner.browser, 'POST', '/api/organizations/{id}/domains/{domain_id}/verify', { params: { id, domain_id: claim.id } });
  },
  // Activated against a live provider, then disabled: the two outcomes of the one operation.
  changeFederationConnection: async () => {
    const owner = await passwordAccount();
    const id = await createOrganization(owner);
    const { connectionId } = await sceneConnection(owner, id);
    const change = (status: string) => () =>
      asBrowser(owner.browser, 'PATCH', '/api/organizations/{id}/federation/connections/{connection_id}', {
        params: { id, connection_id: connectionId },
        body: { status },
        headers: { 'idempotency-key': randomUUID() },
      });
    return [change('active'), change('disabled')];
  },
  // A new employee's first federated sign-in, in a browser where someone else's session was live.
  completeOidcFederation: async () => {
    const owner = await passwordAccount();
    const id = await createOrganization(owner);
    const { connectionId, domain } = await sceneConnection(owner, id);
    await asBrowser(owner.browser, 'PATCH', '/api/organizations/{id}/federation/connections/{connection_id}', {
      params: { id, connection_id: connectionId },
      body: { status: 'active' },
      headers: { 'idempotency-key': randomUUID() },
    });
    const { query, cookie } = await returnFromProvider(connectionId, `employee-${randomUUID()}`, `employee-${randomUUID().slice(0, 8)}@${domain}`);
    return () => asBrowser(null, 'GET', '/api/auth/federation/oidc/callback', { query, headers: { cookie: `${cookie}; ${owner.browser.cookie}` } });
  },
  completeSamlFederation: async () => {
    const owner = await passwordAccount();
    return samlResponseReady(owner, await createOrganization(owner), owner.browser.cookie);
  },
  assignOrganizationApplication: async () => {
    const owner = await passwordAccount();
    const id = await createOrganization(owner);
    const app = await createApplication(await passwordAccount());
    return () => asBrowser(owner.browser, 'POST', '/api/organizations/{id}/applications', { params: { id }, body: { client_id: app.client_id } });
  },
  unassignOrganizationApplication: async () => {
    const owner = await passwordAccount();
    const id = await createOrganization(owner);
    const app = await createApplication(await passwordAccount());
    await asBrowser(owner.browser, 'POST', '/api/organizations/{id}/applications', { params: { id }, body: { client_id: app.client_id } });
    return () => asBrowser(owner.browser, 'DELETE', '/api/organizations/{id}/applications/{application_id}', { params: { id, application_id: app.id } });
  },
};

/** A directory with one user whose membership an admin has since removed (so `active: true` joins again). */
async function directoryWithRemovedUser() {
  const dir = await directory(mailbox, 'events-scim');
  const user = await provision(dir, address());
  const [row] = await (await getDb()).select().from(scimUsers).where(eq(scimUsers.id, user.id));
  await asBrowser(dir.owner.browser, 'DELETE', '/api/organizations/{id}/members/{member_id}', { params: { id: dir.id, member_id: row!.membershipId } });
  return { dir, user };
}

/** A directory group with one member, and another user of the directory outside it. */
async function directoryGroup() {
  const dir = await directory(mailbox, 'events-scim');
  const [inside, outside] = [await provision(dir, address()), await provision(dir, address())];
  const response = await dir.scim('POST', '/scim/v2/Groups', { body: { displayName: `Team ${randomUUID().slice(0, 8)}`, members: [{ value: inside.id }] } });
  const group = (await response.json()) as { id: string };
  return { dir, group, inside, outside };
}

const SCIM_SCENARIOS: Record<string, () => Promise<Act | Act[]>> = {
  // Active, and provisioned deactivated (the membership is suspended at once).
  provisionScimUser: async () => {
    const dir = await directory(mailbox, 'events-scim');
    return [
      () => dir.scim('POST', '/scim/v2/Users', { body: userBody(address()) }),
      () => dir.scim('POST', '/scim/v2/Users', { body: userBody(address(), { active: false }) }),
    ];
  },
  // Back after an admin removed them (joins again), then deactivated with a new display name.
  replaceScimUser: async () => {
    const { dir, user } = await directoryWithRemovedUser();
    const put = (extra: Record<string, unknown>) => () =>
      dir.scim('PUT', '/scim/v2/Users/{id}', { params: { id: user.id }, body: userBody(user.userName, extra) });
    return [put({ active: true }), put({ active: false, displayName: 'Renamed' })];
  },
  patchScimUser: async () => {
    const { dir, user } = await directoryWithRemovedUser();
    const patch =
      (...ops: Record<string, unknown>[]) =>
      () =>
        dir.scim('PATCH', '/scim/v2/Users/{id}', { params: { id: user.id }, body: patchOp(...ops) });
    return [patch({ op: 'replace', path: 'active', value: true }), patch({ op: 'replace', value: { active: false, displayName: 'Renamed' } })];
  },
  deprovisionScimUser: async () => {
    const dir = await directory(mailbox, 'events-scim');
    const user = await provision(dir, address());
    return () => dir.scim('DELETE', '/scim/v2/Users/{id}', { params: { id: user.id } });
  },
  provisionScimGroup: async () => {
    const dir = await directory(mailbox, 'events-scim');
    const user = await provision(dir, address());
    return () => dir.scim('POST', '/scim/v2/Groups', { body: { displayName: 'Engineering', members: [{ value: user.id }] } });
  },
  replaceScimGroup: async () => {
    const { dir, group, outside } = await directoryGroup();
    return () => dir.scim('PUT', '/scim/v2/Groups/{id}', { params: { id: group.id }, body: { displayName: 'Renamed', members: [{ value: outside.id }] } });
  },
  patchScimGroup: async () => {
    const { dir, group, inside, outside } = await directoryGroup();
    const body = patchOp(
      { op: 'Replace', path: 'displayName', value: 'Renamed' },
      { op: 'Add', path: 'members', value: [{ value: outside.id }] },
      { op: 'Remove', path: `members[value eq "${inside.id}"]` },
    );
    return () => dir.scim('PATCH', '/scim/v2/Groups/{id}', { params: { id: group.id }, body });
  },
  deprovisionScimGroup: async () => {
    const { dir, group } = await directoryGroup();
    return () => dir.scim('DELETE', '/scim/v2/Groups/{id}', { params: { id: group.id } });
  },
};
Object.assign(SCENARIOS, SCIM_SCENARIOS);

const deletion = (path: string, confirmation: string, browser: Parameters<typeof as>[0]) => () =>
  post(path, { confirmation }, { headers: { ...as(browser), 'idempotency-key': randomUUID() } });

Object.assign(SCENARIOS, {
  requestAccountDeletion: async () => deletion('/api/auth/privacy/deletion-request', 'DELETE_MY_ACCOUNT', (await passwordAccount()).browser),
  cancelAccountDeletion: async () => {
    const { browser } = await passwordAccount();
    await deletion('/api/auth/privacy/deletion-request', 'DELETE_MY_ACCOUNT', browser)();
    return deletion('/api/auth/privacy/deletion-request/cancel', 'CANCEL_DELETION', browser);
  },
} satisfies Record<string, () => Promise<Act>>);

const declaring = OPERATIONS.filter((op) => op.emits && op.emits.length > 0);
const walk = new WalkCoverage();
const outboxIds = async () => new Set((await (await getDb()).select({ id: outboxEvents.id }).from(outboxEvents)).map((row) => row.id));

describe('declared events', () => {
  it('has a scenario for every operation that declares events', () => {
    expect(declaring.filter((op) => !SCENARIOS[op.id]).map((op) => op.id)).toEqual([]);
    expect(Object.keys(SCENARIOS).filter((id) => !declaring.some((op) => op.id === id))).toEqual([]);
  });

  it('declares every event of the catalogue on some operation, or documents it as internal', () => {
    const declared = new Set(declaring.flatMap((op) => op.emits!));
    expect(EVENT_TYPES.filter((type) => !declared.has(type) && !INTERNAL_EVENTS[type])).toEqual([]);
  });

  it.each(declaring.map((op) => [op.id, op] as const))('%s writes exactly its declared events to the outbox', async (_id, op) => {
    walk.record(op);
    const acts = [await SCENARIOS[op.id]!()].flat();
    const before = await outboxIds();
    for (const act of acts) {
      const response = await act();
      expect(response.status, await response.clone().text()).toBe(op.successStatus);
    }
    const written = (await (await getDb()).select({ id: outboxEvents.id, type: outboxEvents.type }).from(outboxEvents)).filter((row) => !before.has(row.id));
    expect([...new Set(written.map((row) => row.type))].sort()).toEqual([...op.emits!].sort());
  });
});

describe('the walk', () => {
  it('ran every operation of the registry that declares events', () => {
    expect(declaring.length).toBeGreaterThan(0);
    expect(walk.gaps(declaring)).toEqual({ notRun: [], unexpected: [] });
  });
});

describe('an event the operation does not declare', () => {
  const undeclared: AnyOperation = bindResource(
    resourceContract({
      id: 'test_undeclared_event',
      method: 'POST',
      path: '/test/undeclared-event',
      tag: 'Test',
      summary: 'Emits an event it does not declare',
      auth: { kind: 'public' },
      origin: 'required',
      idempotency: 'none',
      body: z.object({ user_id: z.string() }),
      successStatus: 200,
      emits: ['identity.user.updated'],
      response: z.object({ ok: z.literal(true) }),
      testOnly: true,
    }),
    async ({ body, now }) => {
      await emitEvent(await getDb(), 'identity.passkey.removed', { user_id: body.user_id }, { userId: body.user_id }, now);
      return { ok: true as const };
    },
  );

  // ASVS V16.5.3
  it('is refused (a programming error) and never reaches the outbox', async () => {
    const before = await outboxIds();
    const response = await call(undeclared, { headers: { origin: ORIGIN }, body: { user_id: randomUUID() } });
    expect(response.status).toBe(500);
    expect((await problemOf(response)).code).toBe('internal_error');
    expect([...(await outboxIds())].filter((id) => !before.has(id))).toEqual([]);
  });
});
