import { bindCollection, type AnyOperation } from '@/lib/contract/operation';
import { ownDeveloperActivity } from './developer-audit';
import * as contract from './developer-audit.contract';

export const developerAuditOperations: AnyOperation[] = [
  bindCollection(contract.listDeveloperAuditEvents, ({ actor, page }) => ownDeveloperActivity(actor, page)),
  bindCollection(contract.listBearerDeveloperAuditEvents, ({ actor, page }) => ownDeveloperActivity(actor, page)),
];
