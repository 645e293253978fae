import { bindResource, type AnyOperation } from '@/lib/contract/operation';
import { exportPersonalData } from './export';
import * as contract from './privacy.contract';
import { deletionOperations } from './deletion/deletion.routes';

export const privacyOperations: AnyOperation[] = [
  bindResource(contract.exportPersonalData, ({ actor, now }) => exportPersonalData(actor, now)),
  ...deletionOperations,
];
