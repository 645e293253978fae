'use client';

import { useId, useState, type FormEvent } from 'react';
import { StatusNote } from '../../_components/auth/error-alert';
import { LocalTime } from '../../_components/auth/local-time';
import type { PolicyKey } from '@/lib/contract/policy-keys';
import { useConsoleAction, useConsoleApi, usePolicies } from '../console-api';
import type { Api } from '../../_components/api/use-api';
import { useConsole } from '../console-context';
import { checkedValues, Checks, CollectionState, DurationField, durationValue, TextField, useSectionStatus } from '../console-ui';
import { formatDuration, policyText, policyValueText, type PolicyKind } from '../policy-text';
import type { Policy } from '../contract-types';

/**
 * Organization policies with their defaults, each by its name and what it does (the key as detail):
 * set a value (POST, set or replace) or reset one to its default (DELETE, which an organization may
 * put behind an approval).
 */
export function PoliciesSection() {
  const { can } = useConsole();
  const policies = usePolicies();
  const { heading, note, changed } = useSectionStatus(policies.reload);
  const { api, panel } = useConsoleApi();
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
            <PolicyRow key={`${policy.policy_key}:${JSON.stringify(policy.value)}`} policy={policy} manage={manage} api={api} onChanged={changed} />
          ))}
        </ul>
      </CollectionState>
      <StatusNote message={note} />
      {panel}
    </section>
  );
}

function PolicyRow({ policy, manage, api, onChanged }: { policy: Policy; manage: boolean; api: Api; onChanged: (message: string) => Promise<void> }) {
  const params = { id: useConsole().organization.id };
  // The organization lists the catalogue's policies only.
  const policyKey = policy.policy_key as PolicyKey;
  const { name, sentence, kind } = policyText(policy.policy_key, policy.description);
  const save = useConsoleAction(['value']);
  const reset = useConsoleAction();
  const [localError, setLocalError] = useState<string | undefined>(undefined);
  const shown = (value: unknown) => policyValueText(kind, value);

  function valueOf(form: HTMLFormElement): { value: unknown } | string {
    const data = new FormData(form);
    if (kind?.type === 'duration') {
      const seconds = durationValue(form);
      const max = Number(policy.default_value);
      if (seconds === null) return 'Enter a number.';
      if (seconds < kind.minSeconds || seconds > max) return `Choose between ${formatDuration(kind.minSeconds)} and ${formatDuration(max)}.`;
      return { value: seconds };
    }
    if (kind?.type === 'switch') return { value: data.get('value') === 'on' };
    if (kind?.type === 'choices') return { value: checkedValues(form, 'value') };
    try {
      return { value: JSON.parse(String(data.get('value') ?? '')) };
    } catch {
      return 'Enter the value as JSON.';
    }
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setLocalError(undefined);
    const parsed = valueOf(event.currentTarget);
    if (typeof parsed === 'string') {
      setLocalError(parsed);
      return;
    }
    // Loosening a policy is gated like a reset; taking anything out of approvals.required_for always is.
    const result = await save.run(() => api.setOrganizationPolicy({ params, body: { policy_key: policyKey, value: parsed.value } }));
    if (result?.ok) await onChanged(`${name} is now ${shown(result.body.value)}.`);
  }

  async function backToDefault() {
    const result = await reset.run(() => api.deleteOrganizationPolicy({ params: { ...params, policy_key: policyKey } }));
    if (result?.ok) await onChanged(`${name} is back to its default (${shown(result.body.value)}).`);
  }

  const fieldError = localError ?? save.fieldErrors.value;
  return (
    <li className="card auth-item">
      <div className="auth-item-main">
        <h3 className="auth-item-title console-item-heading">
          {name} {policy.is_default ? <span className="badge">Default</span> : <span className="badge badge-ready">Set</span>}
        </h3>
        <p className="hint">{sentence}</p>
        <p className="hint">
          Now: <strong>{shown(policy.value)}</strong> · default: {shown(policy.default_value)}
          {!policy.is_default && policy.updated_at && (
            <>
              {' '}
              · changed <LocalTime iso={policy.updated_at} />
            </>
          )}
        </p>
        <p className="hint console-key">
          Key: <code>{policy.policy_key}</code>
        </p>
      </div>
      {manage && (
        <form className="stack console-full" onSubmit={submit} aria-label={`Change ${name}`}>
          <PolicyInput kind={kind} policy={policy} name={name} error={fieldError} />
          {save.alert}
          <div className="auth-actions">
            <button type="submit" disabled={save.pending || reset.pending}>
              Save<span className="console-visually-hidden"> {name}</span>
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

/** The control that edits one policy's value, as its kind reads best. */
function PolicyInput({ kind, policy, name, error }: { kind: PolicyKind | null; policy: Policy; name: string; error: string | undefined }) {
  const checkboxId = useId();
  const errorId = useId();
  switch (kind?.type) {
    case 'duration':
      return (
        <DurationField legend="New value" seconds={Number(policy.value)} minSeconds={kind.minSeconds} maxSeconds={Number(policy.default_value)} error={error} />
      );
    case 'switch':
      return (
        <>
          <label className="console-check" htmlFor={checkboxId}>
            <input
              id={checkboxId}
              type="checkbox"
              name="value"
              defaultChecked={policy.value === true}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? errorId : undefined}
            />
            <span>{name}</span>
          </label>
          {error && (
            <p id={errorId} className="error auth-field-error">
              {error}
            </p>
          )}
        </>
      );
    case 'choices':
      return (
        <Checks
          legend={name}
          name="value"
          options={kind.options.map((option) => ({ ...option, hint: <code>{option.value}</code> }))}
          defaultChecked={Array.isArray(policy.value) ? (policy.value as string[]) : []}
          error={error}
        />
      );
    default:
      return <TextField label="New value (JSON)" name="value" multiline rows={3} required defaultValue={JSON.stringify(policy.value)} error={error} />;
  }
}
