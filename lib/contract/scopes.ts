/** The spec's scope list (Authentication section). */
export const SCOPES = [
  'identity.profile.read',
  'identity.email.read',
  'identity.profile.write',
  'identity.organization.read',
  'identity.organization.members.read',
  'identity.privacy.export',
  'identity.developer.read',
  'identity.applications.manage',
  'identity.webhooks.test',
  'identity.api_keys.create',
  'offline_access',
] as const;

export type Scope = (typeof SCOPES)[number];
