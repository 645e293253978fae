import { and, desc, eq, or } from 'drizzle-orm';
import type { Executor } from '@/lib/db';
import { auditEvents } from '@/lib/db/schema';

/**
 * The newest audit events by or about a user (sign-ins are recorded about the account, since nobody
 * is signed in yet), without their data or request ids.
 */
export async function listUserActivity(db: Executor, userId: string, limit: number) {
  return db
    .select({ action: auditEvents.action, outcome: auditEvents.outcome, createdAt: auditEvents.createdAt })
    .from(auditEvents)
    .where(or(eq(auditEvents.actorId, userId), and(eq(auditEvents.subjectType, 'user'), eq(auditEvents.subjectId, userId))))
    .orderBy(desc(auditEvents.createdAt))
    .limit(limit);
}
