import type { UserRow } from './users.repo';

/** What a person's own record looks like on the wire (session view, profile). */
export function userView(user: UserRow) {
  return { id: user.id, email: user.email, display_name: user.displayName, locale: user.locale, timezone: user.timezone };
}
