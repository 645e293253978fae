/**
 * Permissions as the portal's forms write them: one per line, the permission's name, then what it lets
 * a client do in plain words (`invoices:read Read your invoices`). The service checks both.
 */
export const PERMISSIONS_HINT =
  'One per line: the permission’s name (no spaces), then what it lets an application do, as people will read it on the consent screen.';

export interface PermissionLine {
  name: string;
  description: string;
}

export function parsePermissions(text: string): PermissionLine[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const [name = '', ...words] = line.split(/\s+/);
      return { name, description: words.join(' ') };
    });
}

export function formatPermissions(permissions: readonly PermissionLine[]): string {
  return permissions.map((p) => `${p.name} ${p.description}`).join('\n');
}
