/** Shapes of the organization API as the console reads them (the contract in the spec / API.md). */
import type { Permission } from '@/lib/contract/permissions';

export interface MyOrganization {
  id: string;
  name: string;
  slug: string;
  role: string;
  role_name: string;
  created_at: string;
}

export interface Organization {
  id: string;
  name: string;
  slug: string;
  created_at: string;
  updated_at: string;
}

export interface OrganizationDetail extends Organization {
  membership: { id: string; role: string; permissions: Permission[] };
}

export type MemberStatus = 'active' | 'suspended' | 'revoked';

export interface Member {
  id: string;
  user_id: string;
  email: string;
  display_name: string | null;
  role: string;
  role_name: string;
  status: MemberStatus;
  created_at: string;
  updated_at: string;
}

export interface Invitation {
  id: string;
  email: string;
  role: string;
  role_name: string;
  status: 'pending' | 'accepted' | 'revoked' | 'expired';
  expires_at: string;
  created_at: string;
}

export interface Group {
  id: string;
  name: string;
  member_count: number;
  created_at: string;
  updated_at: string;
}

export interface GroupMember {
  id: string;
  user_id: string;
  email: string;
  display_name: string | null;
  created_at: string;
}

export interface Role {
  id: string;
  name: string;
  description: string | null;
  builtin: boolean;
  permissions: Permission[];
  created_at: string;
}

export interface Delegation {
  id: string;
  membership_id: string;
  user_id: string;
  email: string;
  permissions: Permission[];
  expires_at: string | null;
  status: 'active' | 'expired' | 'revoked';
  created_at: string;
}

export interface Policy {
  policy_key: string;
  value: unknown;
  default_value: unknown;
  is_default: boolean;
  description: string;
  updated_at: string | null;
}

export type ApprovalStatus = 'requested' | 'approved' | 'rejected' | 'expired' | 'cancelled';

export interface Approval {
  id: string;
  action: string;
  target: string;
  reason: string | null;
  status: ApprovalStatus;
  requested_by: string;
  decided_by: string | null;
  decided_at: string | null;
  consumed_at: string | null;
  expires_at: string;
  created_at: string;
}

export type RiskLevel = 'low' | 'medium' | 'high';

export interface AgentAction {
  id: string;
  name: string;
  description: string;
  input_schema: unknown;
  risk_level: RiskLevel;
  created_at: string;
}

export interface AuditEvent {
  id: string;
  action: string;
  outcome: string;
  actor: AuditParty;
  subject: AuditParty | null;
  request_id: string | null;
  data: Record<string, unknown> | null;
  /** On updates: each changed field, old → new where recorded. */
  changes?: { field: string; from?: string | number | boolean | null; to?: string | number | boolean | null }[];
  created_at: string;
}

/** An actor or subject of an audit event; `name` is what people call it, read now (null when gone). */
export interface AuditParty {
  type: string;
  id: string | null;
  name?: string | null;
}
