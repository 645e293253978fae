/**
 * Bearer organization reads (spec, "Bearer organization reads"): an organization-bound OAuth token or
 * API key reads the one organization it is bound to. The pipeline has already resolved the binding
 * and the credential owner's active membership (tenant `binding` / `id`); these only shape answers.
 */
import type { Page, PageRequest } from '@/lib/contract/operation';
import type { TenantActor } from '@/lib/contract/tenant';
import { getDb } from '@/lib/db';
import { readOrganization } from '../lifecycle/organizations';
import { findCustomRole } from '../roles/roles.repo';
import { roleRef } from '../roles/roles-view';

/**
 * `organizations`: exactly the bound organization, in the browser list's item shape. One item, so the
 * first page is the whole collection (has_more false); any cursor reads past it.
 */
export async function boundOrganizations(tenant: TenantActor, page: PageRequest) {
  const organization = await readOrganization(tenant);
  const customRole = tenant.role === 'custom' && tenant.customRoleId ? await findCustomRole(await getDb(), tenant.organizationId, tenant.customRoleId) : null;
  const item = {
    id: organization.id,
    name: organization.name,
    slug: organization.slug,
    ...roleRef({ role: tenant.role, customRoleId: tenant.customRoleId, customRoleName: customRole?.name ?? null }),
    created_at: organization.created_at,
  };
  const result: Page<typeof item> = { items: page.after ? [] : [item], hasMore: false, last: null };
  return result;
}
