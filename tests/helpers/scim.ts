/**
 * A directory (SCIM client) against the real pipeline: an organization whose owner issued a SCIM token
 * through the API, and calls to /scim/v2 with that token, through the route bindings.
 */
import { expect } from 'vitest';
import type { HttpMethod } from '@/lib/contract/operation';
import type { Mailbox } from './accounts';
import { callRoute, type CallOptions } from './http';
import { asBrowser, ownedOrganization } from './organizations';

export const SCIM_USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const SCIM_GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

export async function issueScimToken(owner: Awaited<ReturnType<typeof ownedOrganization>>['owner'], organizationId: string, name = 'Directory') {
  const response = await asBrowser(owner.browser, 'POST', '/api/organizations/{id}/scim/tokens', { params: { id: organizationId }, body: { name } });
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as { id: string; name: string; token: string; created_at: string };
}

/** An organization, its owner, and a directory holding a fresh SCIM token for it. */
export async function directory(mailbox: Mailbox, label = 'ada') {
  const organization = await ownedOrganization(mailbox, label);
  const { token, id: tokenId } = await issueScimToken(organization.owner, organization.id);
  const scim = (method: HttpMethod, path: string, options: CallOptions = {}) =>
    callRoute(method, path, {
      ...options,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/scim+json', ...options.headers },
    });
  return { ...organization, token, tokenId, scim };
}

export type Directory = Awaited<ReturnType<typeof directory>>;

export function userBody(userName: string, extra: Record<string, unknown> = {}) {
  return {
    schemas: [SCIM_USER],
    userName,
    name: { givenName: 'Ada', familyName: 'Lovelace' },
    emails: [{ value: userName, type: 'work', primary: true }],
    ...extra,
  };
}

export async function provision(dir: Directory, userName: string, extra: Record<string, unknown> = {}) {
  const response = await dir.scim('POST', '/scim/v2/Users', { body: userBody(userName, extra) });
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as { id: string; userName: string; active: boolean; meta: { version: string; location: string } };
}

export const patchOp = (...operations: Record<string, unknown>[]) => ({ schemas: [PATCH_OP], Operations: operations });

export async function scimError(response: Response) {
  expect(response.headers.get('content-type')).toBe('application/scim+json');
  const body = (await response.json()) as { schemas: string[]; status: string; scimType?: string; detail: string };
  expect(body.schemas).toEqual(['urn:ietf:params:scim:api:messages:2.0:Error']);
  expect(body.status).toBe(String(response.status));
  return body;
}
