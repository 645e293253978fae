'use client';

import { useState, type FormEvent } from 'react';
import { fieldValue } from '../../_components/auth/use-api-action';
import { useCollection, useConsoleAction } from '../console-api';
import type { Api } from '../../_components/api/use-api';
import { CollectionState, SelectField } from '../console-ui';
import { CONTRACTS } from '@/lib/http/contracts';
import { useConsole } from '../console-context';
import type { Group, GroupMember } from '../contract-types';

/** One group's members: add an active member of the organization, remove one. */
export function GroupMembers({ group, manage, api, onChanged }: { group: Group; manage: boolean; api: Api; onChanged: (message: string) => Promise<void> }) {
  const params = { id: useConsole().organization.id, group_id: group.id };
  const members = useCollection(CONTRACTS.listOrganizationGroupMembers, { params });
  const candidates = useCollection(CONTRACTS.listOrganizationMembers, manage ? { params: { id: params.id }, query: { status: 'active' } } : null);
  const add = useConsoleAction(['membership_id']);
  const [removing, setRemoving] = useState<string | null>(null);
  const remove = useConsoleAction();

  const inGroup = new Set((members.items ?? []).map((member) => member.id));
  const choices = (candidates.items ?? [])
    .filter((member) => !inGroup.has(member.id))
    .map((member) => ({ value: member.id, label: member.display_name ? `${member.display_name} (${member.email})` : member.email }));

  async function done(message: string) {
    await members.reload();
    await onChanged(message);
  }

  async function addMember(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const membershipId = fieldValue(event.currentTarget, 'membership_id');
    const result = await add.run(() => api.addOrganizationGroupMember({ params, body: { membership_id: membershipId } }));
    if (result?.ok) await done(`${result.body.display_name ?? result.body.email} added to “${group.name}”.`);
  }

  async function removeMember(member: GroupMember) {
    setRemoving(member.id);
    const result = await remove.run(() => api.removeOrganizationGroupMember({ params: { ...params, membership_id: member.id } }));
    setRemoving(null);
    if (result?.ok) await done(`${member.display_name ?? member.email} removed from “${group.name}”.`);
  }

  return (
    <div className="stack console-nested">
      <h3 className="console-form-title">Members of “{group.name}”</h3>
      <CollectionState {...members} empty={<p>Nobody is in this group yet.{manage ? ' Add a member below.' : ''}</p>}>
        <ul className="console-plain-list">
          {members.items?.map((member) => (
            <li key={member.id} className="console-plain-row">
              <span className="auth-email">{member.display_name ? `${member.display_name} (${member.email})` : member.email}</span>
              {manage && (
                <button type="button" className="auth-secondary auth-danger" onClick={() => removeMember(member)} disabled={remove.pending}>
                  {removing === member.id ? 'Removing…' : 'Remove'}
                  <span className="console-visually-hidden"> {member.email} from the group</span>
                </button>
              )}
            </li>
          ))}
        </ul>
      </CollectionState>
      {remove.alert}
      {manage &&
        (choices.length > 0 ? (
          <form className="console-inline-form" onSubmit={addMember}>
            <SelectField label="Add a member" name="membership_id" choices={choices} required error={add.fieldErrors.membership_id} />
            <button type="submit" className="auth-secondary" disabled={add.pending}>
              Add to group
            </button>
          </form>
        ) : (
          candidates.items !== null && <p className="hint">Every active member is already in this group.</p>
        ))}
      {add.alert}
    </div>
  );
}
