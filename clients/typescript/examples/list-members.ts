/**
 * Lists an organization's members with a credential bound to it: an OAuth access token of an
 * organization-bound grant (scope identity.organization.read).
 *
 *   IDENTITY_SERVICE_URL=https://id.example.com IDENTITY_SERVICE_TOKEN=… ORGANIZATION_ID=… \
 *     npx tsx examples/list-members.ts
 *
 * In your own code, import from '@identity-service/client' instead of '../src/index.js'.
 */
import { IdentityClient, ProblemError, type ListOrganizationMembersItem } from '../src/index.js';

export interface ListMembersOptions {
  baseUrl: string;
  credential: string;
  organizationId: string;
  /** Members per request (1-100); the client follows next_cursor until the last page. */
  pageSize?: number;
  print?: (line: string) => void;
}

export async function main({
  baseUrl,
  credential,
  organizationId,
  pageSize = 100,
  print = console.log,
}: ListMembersOptions): Promise<ListOrganizationMembersItem[]> {
  const client = new IdentityClient({ baseUrl, credential });
  const organization = await client.getBoundOrganization({ id: organizationId });
  print(`${organization.name} (${organization.slug}), read as ${organization.membership.role}`);

  const members: ListOrganizationMembersItem[] = [];
  for await (const member of client.paginate('listOrganizationMembers', { id: organizationId, limit: pageSize })) {
    members.push(member);
    print(`- ${member.display_name ?? member.email} <${member.email}>: ${member.role_name}, ${member.status}`);
  }
  print(`${members.length} member(s)`);
  return members;
}

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`Set ${name}`);
  return value;
}

// Run as a script (not imported, as the e2e spec does): the settings come from the environment. The
// script's own name rather than import.meta, which test runners that compile to CommonJS lack.
if (/[\\/]list-members\.[cm]?[jt]s$/.test(process.argv[1] ?? '')) {
  Promise.resolve()
    .then(() =>
      main({
        baseUrl: required('IDENTITY_SERVICE_URL'),
        credential: required('IDENTITY_SERVICE_TOKEN'),
        organizationId: required('ORGANIZATION_ID'),
      }),
    )
    .catch((error: unknown) => {
      // A ProblemError carries the documented code and the request id to quote to support.
      if (error instanceof ProblemError) console.error(`${error.status} ${error.code} (request ${error.requestId}): ${error.detail ?? error.title}`);
      else console.error(error);
      process.exitCode = 1;
    });
}
