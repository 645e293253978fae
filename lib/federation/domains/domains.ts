/**
 * Verified domains of an organization: register a claim (the answer names the TXT record to
 * publish), verify it through DNS, list and delete. Every read is scoped to the tenant, so another
 * organization's domain id is simply not found. The moves are DOMAIN_TRANSITIONS's.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { Actor } from '@/lib/contract/actor';
import { invalidField } from '@/lib/contract/errors';
import type { Page, PageRequest } from '@/lib/contract/operation';
import type { TenantActor } from '@/lib/contract/tenant';
import { getDb, inTransaction, type Executor } from '@/lib/db';
import { toPage } from '@/lib/db/keyset';
import { decide, recordChange, transitionFor } from '@/lib/organizations';
import { claimableDomain } from './domain-names';
import { challengeName, challengeValue, lookForProof, type ProofOutcome } from './dns-proof';
import {
  connectionsServing,
  deleteDomain,
  findDomain,
  findDomainByName,
  insertDomain,
  listDomains,
  lockName,
  markChecked,
  verifiedElsewhere,
  type DomainRow,
} from './domains.repo';
import { DOMAIN_TRANSITIONS, noSuchDomain, VERIFICATION_WINDOW_DAYS, type DomainEffects, type DomainState } from './transitions';

const DAY_MS = 86_400_000;

/** `failed` is a pending claim past its window: computed, never stored. */
export function domainState(row: DomainRow, now: Date): Exclude<DomainState, 'none'> {
  if (row.status === 'verified') return 'verified';
  return now.getTime() - row.createdAt.getTime() > VERIFICATION_WINDOW_DAYS * DAY_MS ? 'failed' : 'pending';
}

export function domainView(row: DomainRow, now: Date) {
  return {
    id: row.id,
    domain: row.domain,
    status: domainState(row, now),
    verification: { record_type: 'TXT' as const, name: challengeName(row.domain), value: challengeValue(row.verificationToken) },
    verify_before: row.status === 'verified' ? null : new Date(row.createdAt.getTime() + VERIFICATION_WINDOW_DAYS * DAY_MS).toISOString(),
    verified_at: row.verifiedAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
  };
}
export type DomainView = ReturnType<typeof domainView>;

async function domainOf(db: Executor, tenant: TenantActor, domainId: string, lock = false): Promise<DomainRow> {
  const row = await findDomain(db, tenant.organizationId, domainId, lock);
  if (!row) throw noSuchDomain();
  return row;
}

async function record(tx: Executor, tenant: TenantActor, actor: Actor, effects: DomainEffects, row: DomainRow, now: Date, requestId: string) {
  if (!effects.audit) return;
  const event = effects.emits[0] ? { type: effects.emits[0], payload: { domain_id: row.id, domain: row.domain } } : undefined;
  await recordChange(
    tx,
    tenant,
    actor,
    { action: effects.audit, subject: { type: 'domain', id: row.id }, data: { domain: row.domain }, event },
    now,
    requestId,
  );
}

export async function listDomainsOf(tenant: TenantActor, page: PageRequest, now: Date, verifiedOnly = false): Promise<Page<DomainView>> {
  const rows = await listDomains(await getDb(), tenant.organizationId, page.after, page.limit + 1, verifiedOnly);
  const result = toPage(rows, page);
  return { ...result, items: result.items.map((row) => domainView(row, now)) };
}

const REFUSALS = {
  invalid: 'Give a host name such as example.com (no scheme, path, port or address).',
  public_mail_provider: "This is a public mail provider's domain; an organization can only verify a domain it controls.",
} as const;

export async function registerDomain(tenant: TenantActor, actor: Actor, input: { domain: string }, now: Date, requestId: string): Promise<DomainView> {
  const claim = claimableDomain(input.domain);
  if ('refusal' in claim) throw invalidField('domain', REFUSALS[claim.refusal]);
  const row = await inTransaction(async (tx) => {
    await lockName(tx, claim.domain);
    const existing = await findDomainByName(tx, tenant.organizationId, claim.domain);
    // A failed claim is replaced: registering again is how a new record (token) is had.
    const state = existing ? domainState(existing, now) : 'none';
    const move = await decide(DOMAIN_TRANSITIONS, state === 'failed' ? 'none' : state, 'register', {
      verifiedElsewhere: await verifiedElsewhere(tx, tenant.organizationId, claim.domain),
    });
    if (existing) await deleteDomain(tx, tenant.organizationId, existing.id);
    const created: DomainRow = {
      id: randomUUID(),
      organizationId: tenant.organizationId,
      domain: claim.domain,
      status: 'pending',
      verificationToken: randomBytes(24).toString('base64url'),
      verifiedAt: null,
      lastCheckedAt: null,
      createdAt: now,
      updatedAt: now,
    };
    await insertDomain(tx, created);
    await record(tx, tenant, actor, move.effects, created, now, requestId);
    return created;
  });
  return domainView(row, now);
}

/**
 * Looks for the record (outside the transaction: a DNS lookup may take seconds), then moves the claim.
 * A failure answers what was found, so the admin can see a typo or a record not yet published.
 */
export async function verifyDomain(tenant: TenantActor, actor: Actor, domainId: string, now: Date, requestId: string): Promise<DomainView> {
  const current = await domainOf(await getDb(), tenant, domainId);
  const pending = domainState(current, now) === 'pending';
  const proof: ProofOutcome = pending
    ? await lookForProof(challengeName(current.domain), challengeValue(current.verificationToken))
    : { proven: false, reason: 'lookup_failed', found: [] };
  const row = await inTransaction(async (tx) => {
    await lockName(tx, current.domain);
    const locked = await domainOf(tx, tenant, domainId, true);
    const state = domainState(locked, now);
    if (transitionFor(DOMAIN_TRANSITIONS, state, 'verify').to === state) return locked;
    const move = await decide(DOMAIN_TRANSITIONS, state, 'verify', {
      proof,
      verifiedElsewhere: await verifiedElsewhere(tx, tenant.organizationId, locked.domain),
    });
    const verified = await markChecked(tx, tenant.organizationId, domainId, { status: 'verified', verifiedAt: now }, now);
    await record(tx, tenant, actor, move.effects, verified, now, requestId);
    return verified;
  });
  return domainView(row, now);
}

export async function deleteDomainOf(tenant: TenantActor, actor: Actor, domainId: string, now: Date, requestId: string) {
  await inTransaction(async (tx) => {
    const row = await domainOf(tx, tenant, domainId, true);
    const { active } = await connectionsServing(tx, row.id);
    const move = await decide(DOMAIN_TRANSITIONS, domainState(row, now), 'delete', { activeConnections: active });
    await deleteDomain(tx, tenant.organizationId, row.id);
    await record(tx, tenant, actor, move.effects, row, now, requestId);
  });
  return { deleted: true as const };
}

/** Whether the organization has verified the domain of this (canonical) e-mail address: it controls the mailbox. */
export async function verifiesEmailDomain(db: Executor, organizationId: string, email: string): Promise<boolean> {
  const domain = email.slice(email.lastIndexOf('@') + 1);
  return (await findDomainByName(db, organizationId, domain))?.status === 'verified';
}
