/**
 * The developer's own activity (API.md): audit rows the caller acted in whose action is a developer
 * action (api_key.*, application.*, webhook.*), newest first, without the audit `data`.
 */
import { developerAuditEvents } from '@/lib/audit';
import type { BearerActor, SessionActor } from '@/lib/contract/actor';
import type { PageRequest } from '@/lib/contract/operation';

/** The same activity for a session or a bearer credential (the edge adds a bearer read's envelope). */
export async function ownDeveloperActivity(actor: SessionActor | BearerActor, page: PageRequest) {
  return developerAuditEvents(actor.userId, page);
}
