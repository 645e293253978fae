/**
 * How a role travels in the API: `role` is a built-in role's name (owner, admin, member) or a custom
 * role's id; `role_name` is what people read (the custom role's name).
 */
export function roleRef(row: { role: 'owner' | 'admin' | 'member' | 'custom'; customRoleId: string | null; customRoleName?: string | null }) {
  if (row.role !== 'custom') return { role: row.role, role_name: row.role };
  return { role: row.customRoleId ?? 'custom', role_name: row.customRoleName ?? 'custom' };
}
