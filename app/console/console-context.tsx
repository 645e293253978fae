'use client';

import { createContext, useContext } from 'react';
import type { Permission } from '@/lib/contract/permissions';
import type { OrganizationDetail } from './contract-types';

/** What every section of the selected organization needs. */
export interface ConsoleContextValue {
  organization: OrganizationDetail;
  /** The signed-in person's user id (approvals: who requested what). */
  userId: string;
  /** Whether the caller's effective permissions (GET /api/organizations/{id}) include `permission`. */
  can: (permission: Permission) => boolean;
  isOwner: boolean;
  /** Reads the organization (name, slug, the caller's permissions) again after a change. */
  reloadOrganization: () => Promise<void>;
}

export const ConsoleContext = createContext<ConsoleContextValue | null>(null);

export function useConsole(): ConsoleContextValue {
  const value = useContext(ConsoleContext);
  if (!value) throw new Error('useConsole() outside <ConsoleContext>');
  return value;
}
