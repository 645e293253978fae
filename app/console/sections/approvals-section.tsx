'use client';

import { useCallback, useState, type FormEvent } from 'react';
import { StatusNote } from '../../_components/auth/error-alert';
import { LocalTime } from '../../_components/auth/local-time';
import { fieldValue } from '../../_components/auth/use-api-action';
import { GATED_CHANGE_NAMES, GATED_CHANGES, isGatedChange, type GatedChange } from '@/lib/contract/approvals';
import { CONTRACTS } from '@/lib/http/contracts';
import { useCollection, useConsoleAction, useConsoleApi } from '../console-api';
import type { Api, Call } from '../../_components/api/use-api';
import { useConsole } from '../console-context';
import { CollectionState, SelectField, TextField, type Choice, useSectionStatus } from '../console-ui';
import { describeChange, redoOf, type NameOf } from '../gated-changes';
import { usePeople } from '../people';
import type { Approval, ApprovalStatus } from '../contract-types';

/** Changes whose target is a membership id: chosen from the members rather than typed. */
const MEMBER_TARGETS = new Set(['members.remove', 'members.suspend']);

const STATUS_LABELS: Record<ApprovalStatus, string> = {
  requested: 'Waiting for a decision',
  approved: 'Approved',
  rejected: 'Rejected',
  expired: 'Expired',
  cancelled: 'Cancelled',
};

/** "open": what someone has to act on (decide, or apply); "all": every request. */
type Filter = ApprovalStatus | 'open' | 'all';

const FILTERS: Choice[] = [
  { value: 'open', label: 'To decide or to apply' },
  ...(Object.entries(STATUS_LABELS) as [ApprovalStatus, string][]).map(([value, label]) => ({ value, label })),
  { value: 'all', label: 'All requests' },
];

type Decision = 'approve' | 'reject' | 'cancel';
const DONE: Record<Decision, string> = { approve: 'approved', reject: 'rejected', cancel: 'cancelled' };

const usable = (approval: Approval) => approval.status === 'approved' && approval.consumed_at === null && Date.parse(approval.expires_at) > Date.now();

/**
 * The approvals inbox. Requests start where a gated change is refused (its alert offers "Request
 * approval"); here another administrator approves or rejects them (nobody decides their own request),
 * the requester may cancel one while it is open, and an approved, unused request is applied in one
 * click. A form for requesting by hand stays as a fallback (changes made outside the console).
 */
export function ApprovalsSection({ prefill }: { prefill: { action: string; target: string } }) {
  const [filter, setFilter] = useState<Filter>('open');
  const open = filter === 'open';
  const params = { id: useConsole().organization.id };
  const list = (status: ApprovalStatus | null) => ({ params, query: status ? { status } : {} });
  const listed = useCollection(CONTRACTS.listOrganizationApprovals, open ? null : list(filter === 'all' ? null : (filter as ApprovalStatus)));
  const waiting = useCollection(CONTRACTS.listOrganizationApprovals, open ? list('requested') : null);
  const ready = useCollection(CONTRACTS.listOrganizationApprovals, open ? list('approved') : null);
  const { reload: reloadListed } = listed;
  const { reload: reloadWaiting } = waiting;
  const { reload: reloadReady } = ready;
  const reload = useCallback(async () => {
    await Promise.all([reloadListed(), reloadWaiting(), reloadReady()]);
  }, [reloadListed, reloadWaiting, reloadReady]);
  const { heading, note, setNote, changed } = useSectionStatus(reload);
  const { people, members } = usePeople();
  const nameOf: NameOf = (id) => people.get(id);
  const { api, call, panel } = useConsoleApi();
  const rows = (items: Approval[] | null) => (
    <ul className="auth-list">
      {items?.map((approval) => (
        <ApprovalRow
          key={`${approval.id}:${approval.status}:${approval.consumed_at}`}
          approval={approval}
          nameOf={nameOf}
          api={api}
          call={call}
          onChanged={changed}
        />
      ))}
    </ul>
  );
  const readyItems = ready.items?.filter(usable) ?? null;

  return (
    <section aria-labelledby="approvals-heading">
      <h2 id="approvals-heading" ref={heading} tabIndex={-1}>
        Approvals
      </h2>
      <p className="hint">
        Changes this organization puts behind an approval need a second administrator. When such a change is refused, its message offers to request the
        approval. Another administrator approves or rejects the request here; once approved, apply it here in one click, or make the change again where you
        started. Requests expire after 24 hours.
      </p>
      <div className="console-filters">
        <SelectField label="Show" name="status" choices={FILTERS} value={filter} onChange={(value) => setFilter(value as Filter)} />
      </div>
      {open ? (
        <>
          <h3 className="console-subheading">Waiting for a decision</h3>
          <CollectionState {...waiting} empty={<p>Nothing waits for a decision.</p>}>
            {rows(waiting.items)}
          </CollectionState>
          <h3 className="console-subheading">Approved, ready to apply</h3>
          <CollectionState {...ready} items={readyItems} empty={<p>No approved request waits to be applied.</p>}>
            {rows(readyItems)}
          </CollectionState>
        </>
      ) : (
        <CollectionState {...listed} empty={<p>No requests with this status.</p>}>
          {rows(listed.items)}
        </CollectionState>
      )}
      <StatusNote message={note} />
      <RequestByHand prefill={prefill} members={members} nameOf={nameOf} api={api} onRequested={changed} clearNote={() => setNote(null)} />
      {panel}
    </section>
  );
}

/**
 * The fallback: a request typed by hand, for a change refused outside the console (an API client's
 * approval_required names the action and target to copy). Open at once when the URL pre-fills it.
 */
function RequestByHand({
  prefill,
  members,
  nameOf,
  api,
  onRequested,
  clearNote,
}: {
  prefill: { action: string; target: string };
  members: { id: string; email: string }[];
  nameOf: NameOf;
  api: Api;
  onRequested: (message: string) => Promise<void>;
  clearNote: () => void;
}) {
  const { organization } = useConsole();
  const [action, setAction] = useState<GatedChange>(isGatedChange(prefill.action) ? prefill.action : GATED_CHANGE_NAMES[0]);
  // What the chosen change's target is, so the request names exactly the change it allows.
  const targetHint = GATED_CHANGES[action].target;
  const request = useConsoleAction(['action', 'target', 'reason']);

  async function create(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    clearNote();
    const form = event.currentTarget;
    const reason = fieldValue(form, 'reason');
    const body = { action, target: fieldValue(form, 'target'), ...(reason ? { reason } : {}) };
    const result = await request.run(() => api.requestOrganizationApproval({ params: { id: organization.id }, body }));
    if (!result?.ok) return;
    form.reset();
    await onRequested(`Approval requested: ${describeChange(result.body.action, result.body.target, nameOf)}. Another administrator must approve it.`);
  }

  return (
    <details className="console-details card" open={prefill.action !== '' || undefined}>
      <summary>Request an approval by hand (advanced)</summary>
      <p className="hint">
        Only needed for a change refused outside this console: copy the action and target from its answer. Changes made here offer “Request approval” when they
        are refused.
      </p>
      <form className="stack" onSubmit={create} aria-label="Request an approval by hand">
        <SelectField
          label="Change"
          name="action"
          choices={GATED_CHANGE_NAMES.map((value) => ({ value, label: value }))}
          value={action}
          // The select offers exactly the gated changes.
          onChange={(value) => setAction(value as GatedChange)}
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
            maxLength={400}
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
    </details>
  );
}

function ApprovalRow({
  approval,
  nameOf,
  api,
  call,
  onChanged,
}: {
  approval: Approval;
  nameOf: NameOf;
  api: Api;
  call: Call;
  onChanged: (message: string) => Promise<void>;
}) {
  const { userId, organization, can, isOwner } = useConsole();
  const { pending, run, alert } = useConsoleAction();
  const mine = approval.requested_by === userId || approval.requested_by === organization.membership.id;
  const who = (id: string | null) => (id === null ? 'nobody' : id === userId || id === organization.membership.id ? 'you' : (nameOf(id) ?? id));
  const change = describeChange(approval.action, approval.target, nameOf);
  const redo = usable(approval) ? redoOf(approval.action, approval.target, nameOf) : null;
  const mayApply = redo?.kind === 'call' && can(redo.permission) && (!redo.ownerOnly || isOwner);

  async function decide(decision: Decision) {
    const result = await run(() => api.decideOrganizationApproval({ params: { id: organization.id, approval_id: approval.id }, body: { decision } }));
    if (result?.ok) await onChanged(`The request “${change}” is ${DONE[decision]}.`);
  }

  async function apply() {
    if (redo?.kind !== 'call') return;
    const result = await run(() => redo.call(call, organization.id, approval.id));
    if (result?.ok) await onChanged(`Applied: ${redo.done}`);
  }

  return (
    <li className="card auth-item">
      <div className="auth-item-main">
        <p className="auth-item-title">
          <strong>{change}</strong> <span className="badge">{STATUS_LABELS[approval.status]}</span>
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
              Applied <LocalTime iso={approval.consumed_at} />
            </>
          ) : (
            <>
              Expires <LocalTime iso={approval.expires_at} />
            </>
          )}
        </p>
        <p className="hint console-key">
          <code>{approval.action}</code> on <code className="console-wrap">{approval.target}</code>
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
      {redo?.kind === 'call' && mayApply && (
        <div className="console-full stack">
          {redo.note && <p className="hint">{redo.note}</p>}
          <div className="auth-actions">
            <button type="button" onClick={apply} disabled={pending} aria-label={`Apply: ${change}`}>
              Apply
            </button>
          </div>
        </div>
      )}
      {redo?.kind === 'call' && !mayApply && (
        <p className="hint console-full">
          Approved: {redo.ownerOnly ? 'an owner' : `someone holding “${redo.permission}”`} can apply it from this list, or make the change again.
        </p>
      )}
      {redo?.kind === 'elsewhere' && <p className="hint console-full">{redo.why}</p>}
      {alert}
    </li>
  );
}
