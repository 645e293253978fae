'use client';

import { useEffect, useRef, useState, type FormEvent } from 'react';
import { fieldValue } from '../../_components/auth/use-api-action';
import type { CallOutput } from '@/lib/contract/client';
import type { Contracts } from '@/lib/http/contracts';
import { useConsoleAction, useConsoleApi } from '../console-api';
import { useConsole } from '../console-context';
import { TextField } from '../console-ui';

type Deleted = CallOutput<Contracts['deleteOrganization']>;

type Outcome = { kind: 'left' } | { kind: 'deleted'; counts: Deleted };

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** Where the person stands once the organization is no longer theirs: the outcome, focused, and the way on. */
function Gone({ name, outcome }: { name: string; outcome: Outcome }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <section className="card stack console-danger-card" aria-labelledby="gone-heading">
      <h3 id="gone-heading" ref={heading} tabIndex={-1}>
        {outcome.kind === 'left' ? `You left ${name}` : `${name} was deleted`}
      </h3>
      {outcome.kind === 'deleted' && (
        <p>
          {plural(outcome.counts.members_removed, 'membership', 'memberships')} ended (yours included),{' '}
          {plural(outcome.counts.invitations_revoked, 'pending invitation', 'pending invitations')} stopped working and{' '}
          {plural(outcome.counts.grants_revoked, 'application authorization', 'application authorizations')} ended.
        </p>
      )}
      <a className="auth-button-link" href="/console">
        Go to your organizations
      </a>
    </section>
  );
}

/**
 * Leaving the organization (any member; never its last active owner, which the API refuses with a
 * reason shown here) and deleting it (owners: the organization's name typed to confirm, what goes
 * with it said before). Both ask for a recent step-up through `send`, as every change does.
 */
export function DangerZone() {
  const { organization } = useConsole();
  const { api, panel } = useConsoleApi();
  const leaving = useConsoleAction();
  const deleting = useConsoleAction(['confirm_name']);
  const [confirmLeave, setConfirmLeave] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const isOwner = organization.membership.role === 'owner';
  const name = organization.name;

  async function leave() {
    const result = await leaving.run(() => api.leaveOrganization({ params: { id: organization.id }, body: {} }));
    if (result?.ok) setOutcome({ kind: 'left' });
  }

  async function remove(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const typed = fieldValue(event.currentTarget, 'confirm_name');
    if (typed !== name) {
      await deleting.run(async () => ({ ok: false as const, status: 400, body: confirmProblem(name) }));
      return;
    }
    const result = await deleting.run(() => api.deleteOrganization({ params: { id: organization.id }, body: { confirm_name: typed } }));
    if (result?.ok) setOutcome({ kind: 'deleted', counts: result.body });
  }

  if (outcome) return <Gone name={name} outcome={outcome} />;

  return (
    <section className="console-danger-zone" aria-labelledby="danger-heading">
      <h3 id="danger-heading">Leave or delete the organization</h3>
      <div className="card console-danger console-danger-card stack">
        <h4>Leave {name}</h4>
        <p>
          You lose access at once: your groups, any permissions delegated to you, and the applications you authorized for this organization. To come back,
          someone must invite you again.
          {isOwner && ' An organization keeps at least one active owner: make someone else an owner before you leave.'}
        </p>
        {confirmLeave ? (
          <div className="auth-actions">
            <button type="button" className="console-danger-button" onClick={leave} disabled={leaving.pending}>
              Yes, leave {name}
            </button>
            <button type="button" className="auth-secondary" onClick={() => setConfirmLeave(false)} disabled={leaving.pending}>
              Cancel
            </button>
          </div>
        ) : (
          <div>
            <button type="button" className="auth-secondary" onClick={() => setConfirmLeave(true)}>
              Leave organization
            </button>
          </div>
        )}
        {leaving.alert}
      </div>
      {isOwner && (
        <form className="card console-danger console-danger-card stack" onSubmit={remove} aria-label="Delete the organization" noValidate>
          <h4>Delete {name}</h4>
          <p>This cannot be undone. Deleting the organization:</p>
          <ul>
            <li>removes every member: they lose access at once;</li>
            <li>revokes its pending invitations: their links stop working;</li>
            <li>deletes its groups, custom roles, policies, delegated admins, approvals and action catalog;</li>
            <li>ends every application authorization bound to it, with its access and refresh tokens and the API keys applications created under them;</li>
            <li>unassigns its applications. The applications themselves and people’s accounts stay.</li>
          </ul>
          <p>Its audit log is kept by the service, but no one can read it here any more.</p>
          <TextField
            label="Organization name"
            name="confirm_name"
            required
            maxLength={200}
            spellCheck={false}
            hint={
              <>
                Type <strong>{name}</strong> to confirm.
              </>
            }
            error={deleting.fieldErrors.confirm_name}
          />
          {deleting.alert}
          <div>
            <button type="submit" className="console-danger-button" disabled={deleting.pending}>
              Delete organization
            </button>
          </div>
        </form>
      )}
      {panel}
    </section>
  );
}

/** The API's own answer to a name that does not match, given before asking (and before a step-up). */
function confirmProblem(name: string) {
  const message = `Type the organization’s name exactly as it is: ${name}.`;
  return {
    type: 'about:blank',
    title: 'The request is invalid',
    status: 400,
    code: 'invalid_request',
    detail: message,
    errors: [{ path: 'body.confirm_name', message }],
  };
}
