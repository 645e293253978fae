/**
 * The catalogue of wire contracts, keyed by operation id: what the hosted pages' typed client is built
 * from. It imports nothing but contract files (dependency-cruiser), so browser code may import it
 * without pulling server code in. The registry (registry.ts) binds a handler to each of these, and a
 * test checks that every registered operation is exactly its catalogued contract plus a handler.
 */
import { contractsOf } from '@/lib/contract/wire';
import * as members from '@/lib/organizations/members.contract';

export const CONTRACTS = {
  ...contractsOf(members),
};

export type Contracts = typeof CONTRACTS;
