/**
 * The catalogued errors of the SCIM surface with their RFC 7644 §3.12 `scimType`: the edge writes them
 * in the SCIM error schema (lib/http/surfaces.ts).
 */
import { serviceError, type ServiceError } from '@/lib/contract/errors';

export type ScimType = 'invalidFilter' | 'tooMany' | 'uniqueness' | 'mutability' | 'invalidSyntax' | 'invalidPath' | 'noTarget' | 'invalidValue';

export function scimInvalid(scimType: ScimType, detail: string): ServiceError {
  return serviceError('invalid_request', detail, { extras: { scimType } });
}

export const notUnique = (detail: string) => serviceError('conflict', detail, { extras: { scimType: 'uniqueness' } });

export const noSuchResource = (type: 'User' | 'Group') => serviceError('not_found', `No ${type} with this id in this directory.`);

export const versionMismatch = () => serviceError('precondition_failed', 'The resource changed since the version named in If-Match: read it again.');
