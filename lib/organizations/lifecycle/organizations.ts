/**
 * Organizations themselves: create (the creator becomes its owner), list the caller's own, read and
 * update one. Everything else about an organization lives in its own module (members, invitations,
 * groups, roles, policies, delegations, approvals, the action catalog).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { recordAudit } from '@/lib/audit';
import type { SessionActor } from '@/lib/contract/actor';
import { serviceError } from '@/lib/contract/errors';
import type { Page, PageRequest } from '@/lib/contract/operation';
import { PERMISSIONS } from '@/lib/contract/permissions';
import type { TenantActor } from '@/lib/contract/tenant';
import { getDb, inTransaction } from '@/lib/db';
import { toPage } from '@/lib/db/keyset';
import { emitEvent } from '@/lib/events';
import {
  findOrganization,
  insertMembership,
  insertOrganization,
  listOrganizationsOfUser,
  slugTaken,
  updateOrganization,
  type MyOrganizationRow,
  type OrganizationRow,
} from './organizations.repo';
import { roleRef } from '../roles/roles-view';
import { MEMBERSHIP_TRANSITIONS } from '../transitions/memberships';
import { transitionFor } from '../transitions/table';

export { SLUG_PATTERN } from './organizations.contract';

export function organizationView(row: OrganizationRow) {
  return { id: row.id, name: row.name, slug: row.slug, created_at: row.createdAt.toISOString(), updated_at: row.updatedAt.toISOString() };
}

/** "Acme Corp." -> "acme-corp"; a name with nothing usable gets a random handle. */
function slugFrom(name: string): string {
  const base = name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48)
    .replace(/-+$/, '');
  return base || `org-${randomBytes(4).toString('hex')}`;
}

const slugConflict = () => serviceError('conflict', 'This slug is taken.', { extras: { errors: [{ path: 'slug', message: 'This slug is taken.' }] } });

export async function createOrganization(actor: SessionActor, input: { name: string; slug?: string }, now: Date, requestId: string) {
  const organization = await inTransaction(async (tx) => {
    let slug = input.slug ?? slugFrom(input.name);
    if (await slugTaken(tx, slug)) {
      if (input.slug) throw slugConflict();
      slug = `${slug.slice(0, 54)}-${randomBytes(3).toString('hex')}`;
    }
    const row: OrganizationRow = { id: randomUUID(), name: input.name, slug, createdAt: now, updatedAt: now };
    await insertOrganization(tx, row);
    const membershipId = randomUUID();
    await insertMembership(tx, {
      id: membershipId,
      organizationId: row.id,
      userId: actor.userId,
      role: 'owner',
      status: transitionFor(MEMBERSHIP_TRANSITIONS, 'none', 'found').to,
      createdAt: now,
      updatedAt: now,
    });
    await recordAudit(tx, {
      action: 'organization.created',
      outcome: 'success',
      actor,
      organizationId: row.id,
      subject: { type: 'organization', id: row.id },
      requestId,
      data: { slug },
      at: now,
    });
    await emitEvent(tx, 'identity.organization.created', { organization_id: row.id }, { organizationId: row.id }, now);
    return row;
  });
  return organizationView(organization);
}

export async function listMyOrganizations(userId: string, page: PageRequest): Promise<Page<ReturnType<typeof myOrganizationView>>> {
  // The cursor walks the caller's memberships (newest first); the items are the organizations.
  const result = toPage(await listOrganizationsOfUser(await getDb(), userId, page.after, page.limit + 1), page);
  return { ...result, items: result.items.map(myOrganizationView) };
}

function myOrganizationView(row: MyOrganizationRow) {
  return { id: row.organizationId, name: row.name, slug: row.slug, ...roleRef(row), created_at: row.organizationCreatedAt.toISOString() };
}

/** The organization, with the caller's place in it (what the console needs to show or hide). */
export async function readOrganization(tenant: TenantActor) {
  const row = await findOrganization(await getDb(), tenant.organizationId);
  if (!row) throw serviceError('not_found', 'No such organization.');
  return {
    ...organizationView(row),
    membership: {
      id: tenant.membershipId,
      role: tenant.role === 'custom' ? (tenant.customRoleId ?? 'custom') : tenant.role,
      permissions: PERMISSIONS.filter((p) => tenant.permissions.has(p)),
    },
  };
}

export async function changeOrganization(tenant: TenantActor, actor: SessionActor, changes: { name?: string; slug?: string }, now: Date, requestId: string) {
  const fields = Object.keys(changes).sort();
  if (fields.length === 0) throw serviceError('invalid_request', 'Send at least one of name, slug.');
  const row = await inTransaction(async (tx) => {
    const current = await findOrganization(tx, tenant.organizationId);
    if (!current) throw serviceError('not_found', 'No such organization.');
    if (changes.slug !== undefined && current.slug !== changes.slug && (await slugTaken(tx, changes.slug))) throw slugConflict();
    const updated = await updateOrganization(tx, tenant.organizationId, changes, now);
    if (!updated) throw serviceError('not_found', 'No such organization.');
    // The name and slug are public handles, not secrets: the audit log shows them old and new.
    const previous = {
      ...(changes.name !== undefined ? { name: changes.name, name_from: current.name } : {}),
      ...(changes.slug !== undefined ? { slug: changes.slug, slug_from: current.slug } : {}),
    };
    await recordAudit(tx, {
      action: 'organization.updated',
      outcome: 'success',
      actor,
      organizationId: tenant.organizationId,
      subject: { type: 'organization', id: tenant.organizationId },
      requestId,
      data: { fields: fields.join(','), ...previous },
      at: now,
    });
    return updated;
  });
  return organizationView(row);
}
