/** API resources through the real pipeline (the portal's browser contract). */
import { asBrowser, type Person } from './organizations';

export const API_RESOURCES = '/api/developer/api-resources';
export const ONE_API_RESOURCE = '/api/developer/api-resources/{api_resource_id}';
export const MACHINE_ACCESS = '/api/developer/api-resources/{api_resource_id}/machine-access';

export interface CreatedApiResource {
  id: string;
  identifier: string;
  name: string;
  permissions: { name: string; description: string }[];
  access_token_ttl_seconds: number;
  machine_clients: boolean;
  status: 'enabled' | 'disabled';
}

let registered = 0;

/** A fresh identifier each call: identifiers are never reused, not even across tests of one database. */
export function freshIdentifier(): string {
  return `https://api-${(registered += 1)}-${Date.now().toString(36)}.example.test/v1`;
}

export async function createApiResource(owner: Person, body: Record<string, unknown> = {}): Promise<CreatedApiResource> {
  const response = await asBrowser(owner.browser, 'POST', API_RESOURCES, {
    body: {
      identifier: freshIdentifier(),
      name: 'Invoices API',
      permissions: [
        { name: 'invoices:read', description: 'Read your invoices' },
        { name: 'invoices:write', description: 'Create and change invoices' },
      ],
      machine_clients: true,
      ...body,
    },
  });
  if (response.status !== 201) throw new Error(`create API resource failed: ${response.status} ${await response.text()}`);
  return (await response.json()) as CreatedApiResource;
}
