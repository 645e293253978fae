/**
 * SCIM Users of an organization's directory. A provisioned user is an account and an active membership:
 * a new account for an address nobody uses, or an existing account linked only when the organization
 * controls it (the address's domain is verified by this organization, or this directory created the
 * account earlier). No directory gains anything over an account it does not control (409 uniqueness,
 * saying why). `active: false` suspends the membership, `true` restores it; DELETE revokes it. The
 * account itself is never deleted, and its sign-in address never changed, by a directory.
 */
import { randomUUID } from 'node:crypto';
import { createVouchedAccount } from '@/lib/accounts';
import { recordAudit } from '@/lib/audit';
import type { ScimActor } from '@/lib/contract/actor';
import { getConfig } from '@/lib/config';
import { getDb, inTransaction, type Executor } from '@/lib/db';
import { emitEvent, type EventType } from '@/lib/events';
import { verifiesEmailDomain } from '@/lib/federation';
import { directoryMembership, moveDirectoryMembership } from '@/lib/organizations';
import { findUserByEmail } from '@/lib/users';
import { accountEmailOf, parseUser, type UserAttributes } from '../attributes';
import { readAnswer, windowOf, writeAnswer, type ListQuery, type Preconditions } from '../answers';
import { listResponse, USER_SCHEMA } from '../discovery';
import { USER_FILTER_ATTRIBUTES } from '../filter';
import { lockDirectory } from '../directory.repo';
import { applyPatch, type ResourceShape } from '../patch';
import { project } from '../projection';
import { noSuchResource, notUnique } from '../scim-errors';
import { assertIfMatch, versioned } from '../versions';
import {
  countScimUsers,
  directoryCreatedAccount,
  findScimUser,
  insertScimUser,
  listScimUsers,
  liveUserOfAccount,
  markDeprovisioned,
  nextSeq,
  updateScimUser,
  userNameTaken,
  type ScimUserRecord,
  type ScimUserRow,
} from './users.repo';

export interface DirectoryCall {
  actor: ScimActor;
  now: Date;
  requestId: string;
}

const USER_SHAPE: ResourceShape = {
  schema: USER_SCHEMA,
  attributes: ['id', 'schemas', 'meta', 'userName', 'externalId', 'name', 'displayName', 'emails', 'active'],
  multiValued: ['emails'],
  readOnly: ['id', 'schemas', 'meta'],
};

function userLocation(id: string): string {
  return `${getConfig().baseUrl}/scim/v2/Users/${id}`;
}

/** The attributes a client can read and PATCH (no meta): the canonical JSON a PATCH is applied to. */
function attributesOf(record: ScimUserRecord): Record<string, unknown> {
  const name = { givenName: record.givenName, familyName: record.familyName, formatted: record.formattedName };
  return {
    userName: record.userName,
    ...(record.externalId !== null ? { externalId: record.externalId } : {}),
    ...(Object.values(name).some((v) => v !== null) ? { name: Object.fromEntries(Object.entries(name).filter(([, v]) => v !== null)) } : {}),
    ...(record.displayName !== null ? { displayName: record.displayName } : {}),
    ...(record.emails.length > 0 ? { emails: record.emails.map((e) => ({ value: e.value, ...(e.type ? { type: e.type } : {}), primary: e.primary })) } : {}),
    active: record.membershipStatus === 'active',
  };
}

export function userResource(record: ScimUserRecord) {
  return versioned({
    schemas: [USER_SCHEMA],
    id: record.id,
    ...attributesOf(record),
    meta: { resourceType: 'User', created: record.createdAt.toISOString(), lastModified: record.updatedAt.toISOString(), location: userLocation(record.id) },
  });
}

function columnsOf(attributes: UserAttributes) {
  return {
    userName: attributes.userName,
    userNameKey: attributes.userName.toLowerCase(),
    externalId: attributes.externalId,
    givenName: attributes.givenName,
    familyName: attributes.familyName,
    formattedName: attributes.formattedName,
    displayName: attributes.displayName,
    emails: attributes.emails,
  };
}

const userNameInUse = () => notUnique('A user with this userName exists in this directory.');

/**
 * The account the directory user stands for: a new one for a free address; an existing one only when
 * the organization controls it. Refused otherwise, saying why (the directory's admin can verify the
 * domain, then provision again).
 */
async function accountFor(tx: Executor, call: DirectoryCall, attributes: UserAttributes): Promise<{ userId: string; created: boolean }> {
  const { organizationId } = call.actor;
  const email = accountEmailOf(attributes);
  const existing = await findUserByEmail(tx, email);
  if (!existing) {
    const name = attributes.displayName ?? attributes.formattedName;
    const user = await createVouchedAccount(tx, { email, name, method: 'scim', actor: call.actor }, call.now, call.requestId);
    return { userId: user.id, created: true };
  }
  if (!(await verifiesEmailDomain(tx, organizationId, email)) && !(await directoryCreatedAccount(tx, organizationId, existing.id))) {
    throw notUnique(
      "An account with this e-mail address already exists. A directory can link an existing account only when this organization has verified the address's domain (Domains, in the console).",
    );
  }
  if (await liveUserOfAccount(tx, organizationId, existing.id)) throw notUnique('Another user of this directory has this e-mail address.');
  return { userId: existing.id, created: false };
}

/** Brings the membership to what `active` says (a revoked membership joins again when the directory says active). */
async function applyActive(tx: Executor, call: DirectoryCall, record: Pick<ScimUserRecord, 'membershipId' | 'userId' | 'membershipStatus'>, active: boolean) {
  const { organizationId } = call.actor;
  if (active && record.membershipStatus === 'revoked') return (await directoryMembership(tx, organizationId, record.userId, call.now)).membershipId;
  const move = active ? (record.membershipStatus === 'suspended' ? 'reactivate' : null) : record.membershipStatus === 'active' ? 'suspend' : null;
  if (move) await moveDirectoryMembership(tx, organizationId, record.membershipId, move, call.actor, call.now, call.requestId);
  return record.membershipId;
}

async function record(tx: Executor, call: DirectoryCall, scimUserId: string, userId: string, change: DirectoryUserChange) {
  const { organizationId } = call.actor;
  const subject = { type: 'scim_user', id: scimUserId };
  await recordAudit(tx, {
    action: change.action,
    outcome: 'success',
    actor: call.actor,
    organizationId,
    subject,
    requestId: call.requestId,
    data: change.data,
    at: call.now,
  });
  // Identifiers only: a directory's attributes are personal data.
  await emitEvent(tx, change.event, { organization_id: organizationId, scim_user_id: scimUserId, user_id: userId }, { organizationId }, call.now);
}

type DirectoryUserChange =
  | { action: 'scim.user.provisioned'; data: { account: 'created' | 'linked' }; event: EventType }
  | { action: 'scim.user.updated'; data: { fields: string }; event: EventType }
  | { action: 'scim.user.deactivated' | 'scim.user.reactivated' | 'scim.user.deprovisioned'; data?: undefined; event: EventType };

async function reread(tx: Executor, call: DirectoryCall, id: string): Promise<ScimUserRecord> {
  return (await findScimUser(tx, call.actor.organizationId, id))!;
}

export async function provisionUser(call: DirectoryCall, body: Record<string, unknown>) {
  const attributes = parseUser(body);
  const { organizationId } = call.actor;
  const created = await inTransaction(async (tx) => {
    await lockDirectory(tx, organizationId);
    if (await userNameTaken(tx, organizationId, attributes.userName.toLowerCase())) throw userNameInUse();
    const account = await accountFor(tx, call, attributes);
    const membership = await directoryMembership(tx, organizationId, account.userId, call.now);
    const row: ScimUserRow = {
      id: randomUUID(),
      organizationId,
      seq: await nextSeq(tx, organizationId),
      userId: account.userId,
      membershipId: membership.membershipId,
      ...columnsOf(attributes),
      createdAccount: account.created,
      createdAt: call.now,
      updatedAt: call.now,
      deprovisionedAt: null,
    };
    await insertScimUser(tx, row);
    const status = membership.active ? 'active' : 'suspended';
    await applyActive(tx, call, { ...row, membershipStatus: status }, attributes.active);
    const change = {
      action: 'scim.user.provisioned',
      data: { account: account.created ? 'created' : 'linked' },
      event: 'identity.organization.directory.user.provisioned',
    } as const;
    await record(tx, call, row.id, row.userId, change);
    return reread(tx, call, row.id);
  });
  return writeAnswer(userResource(created), true);
}

export async function readUser(call: DirectoryCall, id: string, query: ListQuery, preconditions: Preconditions) {
  const found = await findScimUser(await getDb(), call.actor.organizationId, id);
  if (!found) throw noSuchResource('User');
  return readAnswer(userResource(found), query, preconditions);
}

export async function listUsers(call: DirectoryCall, query: ListQuery) {
  const window = windowOf(query, USER_FILTER_ATTRIBUTES);
  const db = await getDb();
  const { organizationId } = call.actor;
  const [total, rows] = await Promise.all([
    countScimUsers(db, organizationId, window.filter),
    listScimUsers(db, organizationId, window.filter, window.startIndex - 1, window.count),
  ]);
  return listResponse(
    rows.map((row) => project(userResource(row).resource, query)),
    total,
    window.startIndex,
  );
}

/** The names of the attributes whose values differ (for the audit record: names, never values). */
function changedFields(before: Record<string, unknown>, after: Record<string, unknown>): string[] {
  const names = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...names].filter((name) => JSON.stringify(before[name]) !== JSON.stringify(after[name])).sort();
}

/** Replaces (PUT) or patches the user: `next` computes the new attributes from the current ones. */
async function changeUser(call: DirectoryCall, id: string, preconditions: Preconditions, next: (current: Record<string, unknown>) => UserAttributes) {
  const { organizationId } = call.actor;
  const changed = await inTransaction(async (tx) => {
    await lockDirectory(tx, organizationId);
    const current = await findScimUser(tx, organizationId, id, true);
    if (!current) throw noSuchResource('User');
    assertIfMatch(preconditions.ifMatch, userResource(current).etag);
    const before = attributesOf(current);
    const attributes = next(before);
    if (attributes.userName.toLowerCase() !== current.userNameKey && (await userNameTaken(tx, organizationId, attributes.userName.toLowerCase(), id))) {
      throw userNameInUse();
    }
    const fields = changedFields(before, { ...attributesOf({ ...current, ...columnsOf(attributes) }), active: attributes.active });
    if (fields.length === 0) return current;
    const membershipId = await applyActive(tx, call, current, attributes.active);
    await updateScimUser(tx, id, { ...columnsOf(attributes), membershipId, updatedAt: call.now });
    const wasActive = current.membershipStatus === 'active';
    if (fields.includes('active')) {
      const action = attributes.active ? 'scim.user.reactivated' : 'scim.user.deactivated';
      const event = attributes.active ? 'identity.organization.directory.user.reactivated' : 'identity.organization.directory.user.deactivated';
      if (attributes.active !== wasActive) await record(tx, call, id, current.userId, { action, event });
    }
    const others = fields.filter((field) => field !== 'active');
    if (others.length > 0) {
      await record(tx, call, id, current.userId, {
        action: 'scim.user.updated',
        data: { fields: others.join(',') },
        event: 'identity.organization.directory.user.updated',
      });
    }
    return reread(tx, call, id);
  });
  return writeAnswer(userResource(changed));
}

export function replaceUser(call: DirectoryCall, id: string, body: Record<string, unknown>, preconditions: Preconditions) {
  return changeUser(call, id, preconditions, () => parseUser(body));
}

export function patchUser(call: DirectoryCall, id: string, body: Record<string, unknown>, preconditions: Preconditions) {
  return changeUser(call, id, preconditions, (current) => parseUser(applyPatch(current, body, USER_SHAPE)));
}

/** Deprovisions: the membership is revoked (its access ends with it); the account stays. */
export async function deprovisionUser(call: DirectoryCall, id: string, preconditions: Preconditions) {
  const { organizationId } = call.actor;
  await inTransaction(async (tx) => {
    await lockDirectory(tx, organizationId);
    const current = await findScimUser(tx, organizationId, id, true);
    if (!current) throw noSuchResource('User');
    assertIfMatch(preconditions.ifMatch, userResource(current).etag);
    if (current.membershipStatus !== 'revoked')
      await moveDirectoryMembership(tx, organizationId, current.membershipId, 'revoke', call.actor, call.now, call.requestId);
    await markDeprovisioned(tx, current, call.now);
    await record(tx, call, id, current.userId, { action: 'scim.user.deprovisioned', event: 'identity.organization.directory.user.deprovisioned' });
  });
  return null;
}
