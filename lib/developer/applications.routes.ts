import { bindCollection, bindResource, type AnyOperation } from '@/lib/contract/operation';
import {
  applicationCertification,
  createApplication,
  disableApplication,
  listOwnApplications,
  rotateApplicationSecret,
  updateOwnApplication,
} from './applications';
import * as contract from './applications.contract';

export const applicationOperations: AnyOperation[] = [
  bindCollection(contract.listApplications, ({ actor, page }) => listOwnApplications(actor, page)),
  bindResource(contract.createApplication, ({ actor, body, now, requestId }) => createApplication(actor, body, now, requestId, { issueSecret: true })),
  bindResource(contract.updateApplication, ({ actor, params: p, body, now, requestId }) => updateOwnApplication(actor, p.application_id, body, now, requestId)),
  bindResource(contract.disableApplication, ({ actor, params: p, now, requestId }) => disableApplication(actor, p.application_id, now, requestId)),
  bindResource(contract.rotateApplicationSecret, ({ actor, params: p, now, requestId }) => rotateApplicationSecret(actor, p.application_id, now, requestId)),
  bindResource(contract.getApplicationCertification, ({ actor, params: p }) => applicationCertification(actor, p.application_id)),
  bindCollection(contract.listBearerApplications, ({ actor, page }) => listOwnApplications(actor, page)),
  bindResource(contract.createBearerApplication, ({ actor, body, now, requestId }) => createApplication(actor, body, now, requestId, { issueSecret: false })),
];
