/**
 * A federation connection's life in one table (spec, state table: registered -> active -> disabled ->
 * removed). `none` is before registration and after deletion.
 *
 * | from                 | event    | guards                                             | to         | effects        |
 * |----------------------|----------|----------------------------------------------------|------------|----------------|
 * | none                 | register | its domains are verified by the organization       | registered | audit          |
 * | registered/disabled  | activate | its domains still verified; the provider validates | active     | audit, event   |
 * | active               | activate | -                                                  | active     | (none)         |
 * | registered/active    | disable  | -                                                  | disabled   | audit, event   |
 * | disabled             | disable  | -                                                  | disabled   | (none)         |
 * | disabled             | delete   | -                                                  | none       | audit          |
 *
 * Any other move is 409 (404 for a connection that does not exist).
 */
import type { AuditAction } from '@/lib/audit';
import { serviceError } from '@/lib/contract/errors';
import type { EventType } from '@/lib/contract/events';
import type { Guard, TransitionTable } from '@/lib/organizations';
import type { ProviderCheck } from '../providers/provider-check';

export type ConnectionState = 'none' | 'registered' | 'active' | 'disabled';
export type StoredConnectionState = ConnectionState;

export interface ConnectionFacts {
  register: { unverifiedDomains: string[] };
  /** `provider`: the validation, run before the move (outbound requests never hold a transaction open). */
  activate: { unverifiedDomains: string[]; provider: ProviderCheck };
  disable: Record<string, never>;
  delete: Record<string, never>;
}

export interface ConnectionEffects {
  audit: Extract<AuditAction, `federation.connection.${string}`> | null;
  emits: readonly EventType[];
}

export const noSuchConnection = () => serviceError('not_found', 'No such federation connection in this organization.');

const domainsVerified = <F extends { unverifiedDomains: string[] }>(): Guard<F> => ({
  says: 'its domains are verified by the organization',
  holds: (facts) => facts.unverifiedDomains.length === 0,
  refusal: ({ unverifiedDomains }) =>
    serviceError('invalid_request', `Only domains this organization has verified can be served: ${unverifiedDomains.join(', ')}.`, {
      extras: { errors: [{ path: 'body.domains', message: `Not a verified domain of this organization: ${unverifiedDomains.join(', ')}.` }] },
    }),
});

const providerValidates: Guard<ConnectionFacts['activate']> = {
  says: 'the provider validates',
  holds: (facts) => facts.provider.ok,
  refusal: ({ provider }) => {
    const classification = provider.ok ? 'invalid_metadata' : provider.classification;
    return serviceError('federation_validation_failed', `The identity provider did not pass validation (${classification}).`, { extras: { classification } });
  },
};

export const CONNECTION_TRANSITIONS: TransitionTable<ConnectionState, StoredConnectionState, ConnectionFacts, ConnectionEffects> = {
  states: ['none', 'registered', 'active', 'disabled'],
  events: ['register', 'activate', 'disable', 'delete'],
  rows: [
    { from: ['none'], event: 'register', guards: [domainsVerified()], to: 'registered', effects: { audit: 'federation.connection.registered', emits: [] } },
    {
      from: ['registered', 'disabled'],
      event: 'activate',
      guards: [domainsVerified(), providerValidates],
      to: 'active',
      effects: { audit: 'federation.connection.activated', emits: ['identity.organization.federation.connection.activated'] },
    },
    { from: ['active'], event: 'activate', guards: [], to: 'active', effects: { audit: null, emits: [] } },
    {
      from: ['registered', 'active'],
      event: 'disable',
      guards: [],
      to: 'disabled',
      effects: { audit: 'federation.connection.disabled', emits: ['identity.organization.federation.connection.disabled'] },
    },
    { from: ['disabled'], event: 'disable', guards: [], to: 'disabled', effects: { audit: null, emits: [] } },
    { from: ['disabled'], event: 'delete', guards: [], to: 'none', effects: { audit: 'federation.connection.deleted', emits: [] } },
  ],
  unlisted: (state, event) => {
    if (state === 'none') return noSuchConnection();
    if (event === 'register') return serviceError('conflict', 'A connection with this connection_id exists.');
    return serviceError('conflict', `This connection is ${state}; only a disabled connection can be deleted.`);
  },
};
