import { and, eq } from 'drizzle-orm';
import type { Keyset } from '@/lib/contract/operation';
import type { Executor } from '@/lib/db';
import { keysetAfter, keysetOrder } from '@/lib/db/keyset';
import { agentActions } from '@/lib/db/schema';

export type AgentActionRow = typeof agentActions.$inferSelect;

/** False when the organization already has an action of this name (the unique index decides). */
export async function insertAgentAction(db: Executor, row: AgentActionRow): Promise<boolean> {
  const inserted = await db.insert(agentActions).values(row).onConflictDoNothing().returning({ id: agentActions.id });
  return inserted.length > 0;
}

/** The organization's action catalog, newest first, keyset-paginated. */
export async function listAgentActions(db: Executor, organizationId: string, after: Keyset | null, limit: number): Promise<AgentActionRow[]> {
  return db
    .select()
    .from(agentActions)
    .where(and(eq(agentActions.organizationId, organizationId), keysetAfter(agentActions.createdAt, agentActions.id, after)))
    .orderBy(...keysetOrder(agentActions.createdAt, agentActions.id))
    .limit(limit);
}
