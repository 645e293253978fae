/**
 * A domain claim's life in one table (the form of lib/organizations/transitions). `none` is the name's
 * state in the organization before it is registered; `failed` is computed (a pending claim past its
 * verification window, never stored): its token is dropped with it, and registering again mints a new one.
 *
 * | from                     | event    | guards                                         | to       | effects             |
 * |--------------------------|----------|------------------------------------------------|----------|---------------------|
 * | none                     | register | not verified by another organization           | pending  | audit               |
 * | pending                  | verify   | the TXT record holds the token;                | verified | audit, event        |
 * |                          |          | not verified by another organization meanwhile |          |                     |
 * | verified                 | verify   | -                                              | verified | (none: already is)  |
 * | pending/failed/verified  | delete   | no active connection relies on it              | none     | audit               |
 *
 * Any other move is 409 (404 for a claim that does not exist).
 */
import type { AuditAction } from '@/lib/audit';
import { serviceError } from '@/lib/contract/errors';
import type { EventType } from '@/lib/contract/events';
import type { Guard, TransitionTable } from '@/lib/organizations';
import type { ProofOutcome } from './dns-proof';

export type DomainState = 'none' | 'pending' | 'failed' | 'verified';
export type StoredDomainState = 'none' | 'pending' | 'verified';

/** Days a registered domain may stay unproven before its claim reads as failed. */
export const VERIFICATION_WINDOW_DAYS = 7;

export interface DomainFacts {
  register: { verifiedElsewhere: boolean };
  verify: { proof: ProofOutcome; verifiedElsewhere: boolean };
  delete: { activeConnections: number };
}

export interface DomainEffects {
  audit: Extract<AuditAction, `domain.${string}`> | null;
  emits: readonly EventType[];
}

export const noSuchDomain = () => serviceError('not_found', 'No such domain in this organization.');

const takenElsewhere = () => serviceError('conflict', 'This domain is verified by another organization.');

const notVerifiedElsewhere = <F extends { verifiedElsewhere: boolean }>(): Guard<F> => ({
  says: 'not verified by another organization',
  holds: (facts) => !facts.verifiedElsewhere,
  refusal: takenElsewhere,
});

const PROOF_FAILURES = {
  no_record: 'No TXT record was found at the name.',
  other_values: 'TXT records were found at the name, but none holds the expected value.',
  timeout: 'The DNS lookup did not answer in time.',
  lookup_failed: 'The DNS lookup failed.',
} as const;

const proofFound: Guard<DomainFacts['verify']> = {
  says: 'the TXT record holds the token',
  holds: (facts) => facts.proof.proven,
  refusal: ({ proof }) => {
    const failure = proof.proven ? { reason: 'lookup_failed' as const, found: [] } : proof;
    return serviceError('domain_verification_failed', `${PROOF_FAILURES[failure.reason]} Publish the record and verify again.`, {
      extras: { reason: failure.reason, found: failure.found },
    });
  },
};

const noActiveConnection: Guard<DomainFacts['delete']> = {
  says: 'no active connection relies on it',
  holds: (facts) => facts.activeConnections === 0,
  refusal: ({ activeConnections }) => serviceError('conflict', `${activeConnections} active federation connection(s) rely on this domain; disable them first.`),
};

export const DOMAIN_TRANSITIONS: TransitionTable<DomainState, StoredDomainState, DomainFacts, DomainEffects> = {
  states: ['none', 'pending', 'failed', 'verified'],
  events: ['register', 'verify', 'delete'],
  rows: [
    { from: ['none'], event: 'register', guards: [notVerifiedElsewhere()], to: 'pending', effects: { audit: 'domain.registered', emits: [] } },
    {
      from: ['pending'],
      event: 'verify',
      guards: [proofFound, notVerifiedElsewhere()],
      to: 'verified',
      effects: { audit: 'domain.verified', emits: ['identity.organization.domain.verified'] },
    },
    { from: ['verified'], event: 'verify', guards: [], to: 'verified', effects: { audit: null, emits: [] } },
    { from: ['pending', 'failed', 'verified'], event: 'delete', guards: [noActiveConnection], to: 'none', effects: { audit: 'domain.deleted', emits: [] } },
  ],
  unlisted: (state, event) => {
    if (state === 'none') return noSuchDomain();
    if (event === 'register') return serviceError('conflict', `This organization has already registered this domain (${state}).`);
    return serviceError(
      'conflict',
      `This domain's verification window of ${VERIFICATION_WINDOW_DAYS} days has passed; delete it and register it again for a new record.`,
    );
  },
};
