/** The portal's sections, in nav order; each is a view of its own at /portal?section=<id>. */
export const PORTAL_SECTIONS = [
  { id: 'applications', label: 'Applications' },
  { id: 'apis', label: 'APIs' },
  { id: 'api-keys', label: 'API keys' },
  { id: 'webhooks', label: 'Webhooks' },
  { id: 'activity', label: 'Activity' },
] as const;

export type PortalSectionId = (typeof PORTAL_SECTIONS)[number]['id'];

export function isPortalSection(value: unknown): value is PortalSectionId {
  return PORTAL_SECTIONS.some((section) => section.id === value);
}

export const portalHref = (section: PortalSectionId) => `/portal?section=${section}`;
