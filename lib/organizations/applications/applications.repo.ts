import { and, eq } from 'drizzle-orm';
import type { Keyset } from '@/lib/contract/operation';
import type { Executor } from '@/lib/db';
import { keysetAfter, keysetOrder } from '@/lib/db/keyset';
import { developerApplications, organizationApplications } from '@/lib/db/schema';

export interface AssignmentRow {
  /** The application's id (the keyset id). */
  id: string;
  clientId: string;
  name: string;
  status: 'active' | 'disabled';
  createdAt: Date;
}

const assignmentColumns = {
  id: organizationApplications.applicationId,
  clientId: developerApplications.clientId,
  name: developerApplications.name,
  status: organizationApplications.status,
  createdAt: organizationApplications.createdAt,
};

/** An enabled application (any owner's) by its client id: what an organization may assign. */
export async function findEnabledApplication(db: Executor, clientId: string): Promise<{ id: string; clientId: string; name: string } | null> {
  const [row] = await db
    .select({ id: developerApplications.id, clientId: developerApplications.clientId, name: developerApplications.name })
    .from(developerApplications)
    .where(and(eq(developerApplications.clientId, clientId), eq(developerApplications.status, 'enabled')))
    .for('share');
  return row ?? null;
}

export async function listAssignments(db: Executor, organizationId: string, after: Keyset | null, limit: number): Promise<AssignmentRow[]> {
  return db
    .select(assignmentColumns)
    .from(organizationApplications)
    .innerJoin(developerApplications, eq(developerApplications.id, organizationApplications.applicationId))
    .where(
      and(
        eq(organizationApplications.organizationId, organizationId),
        keysetAfter(organizationApplications.createdAt, organizationApplications.applicationId, after),
      ),
    )
    .orderBy(...keysetOrder(organizationApplications.createdAt, organizationApplications.applicationId))
    .limit(limit);
}

/** The organization's assignment of the application, locked for the change; none: null. */
export async function findAssignment(db: Executor, organizationId: string, applicationId: string): Promise<AssignmentRow | null> {
  const [row] = await db
    .select(assignmentColumns)
    .from(organizationApplications)
    .innerJoin(developerApplications, eq(developerApplications.id, organizationApplications.applicationId))
    .where(and(eq(organizationApplications.organizationId, organizationId), eq(organizationApplications.applicationId, applicationId)))
    .for('update', { of: organizationApplications });
  return row ?? null;
}

/** A new assignment, or a disabled one made active again (its first creation time stays). */
export async function activateAssignment(
  db: Executor,
  row: { organizationId: string; applicationId: string; assignedBy: string | null; now: Date },
): Promise<void> {
  await db
    .insert(organizationApplications)
    .values({
      organizationId: row.organizationId,
      applicationId: row.applicationId,
      status: 'active',
      assignedBy: row.assignedBy,
      createdAt: row.now,
      updatedAt: row.now,
    })
    .onConflictDoUpdate({
      target: [organizationApplications.organizationId, organizationApplications.applicationId],
      set: { status: 'active', assignedBy: row.assignedBy, updatedAt: row.now, disabledAt: null },
    });
}

export async function disableAssignment(db: Executor, organizationId: string, applicationId: string, now: Date): Promise<void> {
  await db
    .update(organizationApplications)
    .set({ status: 'disabled', updatedAt: now, disabledAt: now })
    .where(and(eq(organizationApplications.organizationId, organizationId), eq(organizationApplications.applicationId, applicationId)));
}
