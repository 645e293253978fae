import { bindResource, type AnyOperation } from '@/lib/contract/operation';
import { readProfile, updateProfile } from './profile';
import * as contract from './profile.contract';

export const profileOperations: AnyOperation[] = [
  bindResource(contract.getMe, ({ actor }) => readProfile(actor)),
  bindResource(contract.updateMe, ({ actor, body, now, requestId }) => updateProfile(actor, body, now, requestId)),
  bindResource(contract.updateOwnProfile, ({ actor, body, now, requestId }) => updateProfile(actor, body, now, requestId)),
];
