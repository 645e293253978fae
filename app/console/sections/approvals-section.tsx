'use client';

import { useState, type FormEvent } from 'react';
import { StatusNote } from '../../_components/auth/error-alert';
import { LocalTime } from '../../_components/auth/local-time';
import { fieldValue } from '../../_components/auth/use-api-action';
import { GATED_CHANGE_NAMES, GATED_CHANGES, isGatedChange } from '@/lib/contract/approvals';
import { useCollection, useConsoleAction, useConsoleApi, type Send } from '../console-api';
import { useConsole } from '../console-context';
import { CollectionState, SelectField, TextField, type Choice, useSectionStatus } from '../console-ui';
import { usePeople } from '../people';
import type { Approval, ApprovalStatus } from '../types';

/** Changes whose target is a membership id: chosen from the members rather than typed. */
const MEMBER_TARGETS = new Set(['members.remove', 'members.suspend']);

const STATUS_FILTERS: Choice[] = (['requested', 'approved', 'rejected', 'expired', 'cancelled'] as const satisfies readonly ApprovalStatus[]).map((status) => ({
  value: status,
  label: status[0]!.toUpperCase() + status.slice(1),
}));

type Decision = 'approve' | 'reject' | 'cancel';
const DONE: Record<Decision, string> = { approve: 'approved', reject: 'rejected', cancel: 'cancelled' };

/**
 * The approvals inbox: request an approval for a gated change; another administrator approves or
 * rejects it (nobody decides their own request); the requester may cancel it while it is open.
 */
export function ApprovalsSection({ prefill }: { prefill: { action: string; target: string } }) {
  const [status, setStatus] = useState('requested');
  const approvals = useCollection<Approval>(`/approvals${status ? `?status=${status}` : ''}`, 'approvals');
  const { heading, note, setNote, changed } = useSectionStatus(approvals.reload);
  const { people, members } = usePeople();
  const { send, panel } = useConsoleApi();
  const [action, setAction] = useState<string>(isGatedChange(prefill.action) ? prefill.action : GATED_CHANGE_NAMES[0]);
  // What the chosen change's target is, so the request names exactly the change it allows.
  const targetHint = isGatedChange(action) ? GATED_CHANGES[action].target : undefined;
  const request = useConsoleAction(['action', 'target', 'reason']);

  async function create(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setNote(null);
    const form = event.currentTarget;
    const reason = fieldValue(form, 'reason');
    const body = { action, target: fieldValue(form, 'target'), ...(reason ? { reason } : {}) };
    const result = await request.run(() => send<Approval>('/approvals', { body }));
    if (!result?.ok) return;
    form.reset();
    await changed(
      `Approval requested for ${result.body.action} on ${people.get(result.body.target) ?? result.body.target}. Another administrator must approve it.`,
    );
  }

  return (
    <section aria-labelledby="approvals-heading">
      <h2 id="approvals-heading" ref={heading} tabIndex={-1}>
        Approvals
      </h2>
      <p className="hint">
        Changes this organization puts behind an approval need a request that another administrator approves. Once approved, do the change again: the console
        uses the approval for it.
      </p>
      <form className="stack card" onSubmit={create} aria-label="Request an approval">
        <h3 className="console-form-title">Request an approval</h3>
        <SelectField
          label="Change"
          name="action"
          choices={GATED_CHANGE_NAMES.map((value) => ({ value, label: value }))}
          value={action}
          onChange={setAction}
          error={request.fieldErrors.action}
        />
        {MEMBER_TARGETS.has(action) ? (
          <SelectField
            // Remounted once the members arrive, so a pre-filled target is selected.
            key={`${action}:${members.length}`}
            label="Target member"
            name="target"
            required
            placeholder="Choose a member"
            choices={members.map((member) => ({ value: member.id, label: member.email }))}
            defaultValue={prefill.target}
            hint={targetHint}
            error={request.fieldErrors.target}
          />
        ) : (
          <TextField
            label="Target"
            name="target"
            required
            maxLength={200}
            defaultValue={prefill.target}
            hint={targetHint}
            spellCheck={false}
            error={request.fieldErrors.target}
          />
        )}
        <TextField label="Reason (optional)" name="reason" multiline rows={2} maxLength={500} error={request.fieldErrors.reason} />
        {request.alert}
        <div>
          <button type="submit" disabled={request.pending}>
            Request approval
          </button>
        </div>
      </form>

      <div className="console-filters">
        <SelectField label="Show" name="status" choices={STATUS_FILTERS} value={status} onChange={setStatus} placeholder="All requests" />
      </div>
      <CollectionState {...approvals} empty={<p>{status === 'requested' ? 'Nothing waits for a decision.' : 'No requests with this status.'}</p>}>
        <ul className="auth-list">
          {approvals.items?.map((approval) => (
            <ApprovalRow key={approval.id} approval={approval} people={people} send={send} onChanged={changed} />
          ))}
        </ul>
      </CollectionState>
      <StatusNote message={note} />
      {panel}
    </section>
  );
}

function ApprovalRow({
  approval,
  people,
  send,
  onChanged,
}: {
  approval: Approval;
  people: Map<string, string>;
  send: Send;
  onChanged: (message: string) => Promise<void>;
}) {
  const { userId, organization } = useConsole();
  const { pending, run, alert } = useConsoleAction();
  const mine = approval.requested_by === userId || approval.requested_by === organization.membership.id;
  const who = (id: string | null) => (id === null ? 'nobody' : id === userId || id === organization.membership.id ? 'you' : (people.get(id) ?? id));

  async function decide(decision: Decision) {
    const result = await run(() => send<Approval>(`/approvals/${encodeURIComponent(approval.id)}`, { body: { decision } }));
    if (result?.ok) await onChanged(`The request for ${approval.action} on ${approval.target} is ${DONE[decision]}.`);
  }

  return (
    <li className="card auth-item">
      <div className="auth-item-main">
        <p className="auth-item-title">
          <code>{approval.action}</code> on <code>{approval.target}</code>
          {people.has(approval.target) && <span className="auth-email"> ({people.get(approval.target)})</span>} <span className="badge">{approval.status}</span>
        </p>
        <p className="hint">
          Requested by {who(approval.requested_by)} <LocalTime iso={approval.created_at} />
          {approval.reason && (
            <>
              <br />“{approval.reason}”
            </>
          )}
          {approval.decided_at && (
            <>
              <br />
              Decided by {who(approval.decided_by)} <LocalTime iso={approval.decided_at} />
            </>
          )}
          <br />
          {approval.consumed_at ? (
            <>
              Used <LocalTime iso={approval.consumed_at} />
            </>
          ) : (
            <>
              Expires <LocalTime iso={approval.expires_at} />
            </>
          )}
        </p>
      </div>
      {approval.status === 'requested' && mine && (
        <p className="hint console-full">You requested this change, so another administrator must approve or reject it.</p>
      )}
      {approval.status === 'requested' && (
        <div className="auth-actions">
          {mine ? (
            <button type="button" className="auth-secondary" onClick={() => decide('cancel')} disabled={pending}>
              Cancel request
            </button>
          ) : (
            <>
              <button type="button" onClick={() => decide('approve')} disabled={pending}>
                Approve
              </button>
              <button type="button" className="auth-secondary auth-danger" onClick={() => decide('reject')} disabled={pending}>
                Reject
              </button>
            </>
          )}
        </div>
      )}
      {alert}
    </li>
  );
}
