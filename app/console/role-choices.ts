'use client';

import { useConsole } from './console-context';
import { useRoles } from './console-api';
import type { Choice } from './console-ui';
import type { Role } from './contract-types';

/**
 * The roles a member or invitation can get (GET .../roles: built-ins first, then custom roles by id).
 * Only owners make owners, so others are not offered "owner"; the API decides the rest.
 */
export function useRoleChoices(): { roles: Role[] | null; choices: Choice[]; reload: () => Promise<void> } {
  const { isOwner } = useConsole();
  const { items, reload } = useRoles();
  const choices = (items ?? []).filter((role) => isOwner || role.id !== 'owner').map((role) => ({ value: role.id, label: role.name }));
  return { roles: items, choices, reload };
}
