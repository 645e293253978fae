'use client';

import { useId, useState, type FormEvent } from 'react';
import { StatusNote } from '../../_components/auth/error-alert';
import { LocalTime } from '../../_components/auth/local-time';
import { APPROVAL_ACTIONS } from '@/lib/contract/tenant';
import { useCollection, useConsoleAction, useConsoleApi, type Send } from '../console-api';
import { useConsole } from '../console-context';
import { checkedValues, CheckboxGroup, CollectionState, TextField, useSectionStatus } from '../console-ui';
import type { Policy } from '../types';

/** The choices of list-valued policies (the policy catalogue's enums). */
const LIST_OPTIONS: Record<string, { value: string; label: string }[]> = {
  'signin.allowed_methods': [
    { value: 'passkey', label: 'passkey' },
    { value: 'password', label: 'password' },
    { value: 'email_code', label: 'email_code' },
    { value: 'federation', label: 'federation' },
  ],
  'approvals.required_for': APPROVAL_ACTIONS.map((action) => ({ value: action, label: action })),
};

type Kind = 'number' | 'boolean' | 'list' | 'json';

function kindOf(policy: Policy): Kind {
  if (typeof policy.default_value === 'number') return 'number';
  if (typeof policy.default_value === 'boolean') return 'boolean';
  if (Array.isArray(policy.default_value) && LIST_OPTIONS[policy.policy_key]) return 'list';
  return 'json';
}

const shown = (value: unknown) =>
  Array.isArray(value) ? (value.length ? value.join(', ') : 'none') : typeof value === 'boolean' ? (value ? 'on' : 'off') : JSON.stringify(value);

/**
 * Organization policies with their defaults: set a value per key (POST, set or replace) or reset one
 * to its default (DELETE, which an organization may put behind an approval).
 */
export function PoliciesSection() {
  const { can } = useConsole();
  const policies = useCollection<Policy>('/policies', 'policies');
  const { heading, note, changed } = useSectionStatus(policies.reload);
  const { send, panel } = useConsoleApi();
  const manage = can('policies.manage');

  return (
    <section aria-labelledby="policies-heading">
      <h2 id="policies-heading" ref={heading} tabIndex={-1}>
        Policies
      </h2>
      <p className="hint">
        Rules members act under in this organization. A policy can only tighten the service&rsquo;s own limits.{' '}
        {manage ? '' : 'Your role lets you see policies but not change them.'}
      </p>
      <CollectionState {...policies} empty={<p>No policies are available.</p>}>
        <ul className="auth-list">
          {policies.items?.map((policy) => (
            <PolicyRow key={`${policy.policy_key}:${JSON.stringify(policy.value)}`} policy={policy} manage={manage} send={send} onChanged={changed} />
          ))}
        </ul>
      </CollectionState>
      <StatusNote message={note} />
      {panel}
    </section>
  );
}

function PolicyRow({ policy, manage, send, onChanged }: { policy: Policy; manage: boolean; send: Send; onChanged: (message: string) => Promise<void> }) {
  const checkboxId = useId();
  const kind = kindOf(policy);
  const save = useConsoleAction(['value']);
  const reset = useConsoleAction();
  const [localError, setLocalError] = useState<string | undefined>(undefined);

  function valueOf(form: HTMLFormElement): { value: unknown } | null {
    const data = new FormData(form);
    if (kind === 'number') return { value: Number(data.get('value')) };
    if (kind === 'boolean') return { value: data.get('value') === 'on' };
    if (kind === 'list') return { value: checkedValues(form, 'value') };
    try {
      return { value: JSON.parse(String(data.get('value') ?? '')) };
    } catch {
      setLocalError('Enter the value as JSON.');
      return null;
    }
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setLocalError(undefined);
    const parsed = valueOf(event.currentTarget);
    if (!parsed) return;
    // Loosening a policy is gated like a reset; taking anything out of approvals.required_for always is.
    const result = await save.run(() => send<Policy>('/policies', { body: { policy_key: policy.policy_key, value: parsed.value }, approval: 'query' }));
    if (result?.ok) await onChanged(`${policy.policy_key} is now ${shown(result.body.value)}.`);
  }

  async function backToDefault() {
    const result = await reset.run(() =>
      send<Policy>(`/policies/${encodeURIComponent(policy.policy_key)}`, { method: 'DELETE', idempotent: true, approval: 'query' }),
    );
    if (result?.ok) await onChanged(`${policy.policy_key} is back to its default (${shown(result.body.value)}).`);
  }

  const fieldError = localError ?? save.fieldErrors.value;
  return (
    <li className="card auth-item">
      <div className="auth-item-main">
        <p className="auth-item-title">
          <code>{policy.policy_key}</code> {policy.is_default ? <span className="badge">Default</span> : <span className="badge badge-ready">Set</span>}
        </p>
        <p className="hint">{policy.description}</p>
        <p className="hint">
          Current: <strong>{shown(policy.value)}</strong> · default: {shown(policy.default_value)}
          {!policy.is_default && policy.updated_at && (
            <>
              {' '}
              · changed <LocalTime iso={policy.updated_at} />
            </>
          )}
        </p>
      </div>
      {manage && (
        <form className="stack console-full" onSubmit={submit} aria-label={`Change ${policy.policy_key}`}>
          {kind === 'number' && (
            <TextField label="New value (seconds)" name="value" type="number" required min={0} defaultValue={String(policy.value)} error={fieldError} />
          )}
          {kind === 'boolean' && (
            <label className="console-check" htmlFor={checkboxId}>
              <input id={checkboxId} type="checkbox" name="value" defaultChecked={policy.value === true} />
              <span>On</span>
            </label>
          )}
          {kind === 'list' && (
            <CheckboxGroup
              legend="Values"
              name="value"
              options={LIST_OPTIONS[policy.policy_key] ?? []}
              defaultChecked={Array.isArray(policy.value) ? (policy.value as string[]) : []}
              error={fieldError}
            />
          )}
          {kind === 'json' && (
            <TextField label="New value (JSON)" name="value" multiline rows={3} required defaultValue={JSON.stringify(policy.value)} error={fieldError} />
          )}
          {kind === 'boolean' && fieldError && <p className="error auth-field-error">{fieldError}</p>}
          {save.alert}
          <div className="auth-actions">
            <button type="submit" disabled={save.pending || reset.pending}>
              Save
            </button>
            {!policy.is_default && (
              <button type="button" className="auth-secondary" onClick={backToDefault} disabled={save.pending || reset.pending}>
                Reset to default
              </button>
            )}
          </div>
          {reset.alert}
        </form>
      )}
    </li>
  );
}
