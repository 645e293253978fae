import { type AnyOperation, bindCollection } from '@/lib/contract/operation';
import { myMemberships } from './memberships';
import * as contract from './memberships.contract';

export const membershipOperations: AnyOperation[] = [bindCollection(contract.listMyMemberships, ({ actor, page }) => myMemberships(actor, page))];
