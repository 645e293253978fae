'use client';

import { useState, type FormEvent } from 'react';
import { StatusNote } from '../../_components/auth/error-alert';
import { LocalTime } from '../../_components/auth/local-time';
import { fieldValue } from '../../_components/auth/use-api-action';
import { CONTRACTS } from '@/lib/http/contracts';
import { useCollection, useConsoleAction, useConsoleApi } from '../console-api';
import { useConsole } from '../console-context';
import { CollectionState, SelectField, TextField } from '../console-ui';
import type { RiskLevel } from '../contract-types';

const RISK_LEVELS: { value: RiskLevel; label: string }[] = [
  { value: 'low', label: 'Low' },
  { value: 'medium', label: 'Medium' },
  { value: 'high', label: 'High (may need an approval)' },
];

const EXAMPLE_SCHEMA = '{\n  "type": "object",\n  "properties": {},\n  "additionalProperties": false\n}';

/** The agent action catalog: what agents may ask to do here, each with a JSON Schema for its input. */
export function ActionsSection() {
  const { organization, can } = useConsole();
  const actions = useCollection(CONTRACTS.listOrganizationAgentActions, { params: { id: organization.id } });
  const { api, panel } = useConsoleApi();
  const [note, setNote] = useState<string | null>(null);
  const register = useConsoleAction(['name', 'description', 'input_schema', 'risk_level']);
  const [schemaError, setSchemaError] = useState<string | undefined>(undefined);
  const manage = can('actions.manage');

  async function create(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setNote(null);
    setSchemaError(undefined);
    const form = event.currentTarget;
    let schema: unknown;
    try {
      schema = JSON.parse(fieldValue(form, 'input_schema'));
    } catch {
      setSchemaError('The input schema is not valid JSON.');
      return;
    }
    const body = {
      name: fieldValue(form, 'name'),
      description: fieldValue(form, 'description'),
      // Any JSON is sent: the API says which part of it is not a JSON Schema object.
      input_schema: schema as Record<string, unknown>,
      // The select offers exactly the risk levels.
      risk_level: fieldValue(form, 'risk_level') as RiskLevel,
    };
    const result = await register.run(() => api.registerOrganizationAgentAction({ params: { id: organization.id }, body }));
    if (!result?.ok) return;
    form.reset();
    setNote(`Action “${result.body.name}” registered.`);
    await actions.reload();
  }

  return (
    <section aria-labelledby="actions-heading">
      <h2 id="actions-heading">Action catalog</h2>
      <p className="hint">Actions that agents may request in this organization; each input is checked against its JSON Schema.</p>
      <CollectionState {...actions} empty={<p>No actions are registered. {manage ? 'Register the first one below.' : ''}</p>}>
        <ul className="auth-list">
          {actions.items?.map((action) => (
            <li key={action.id} className="card auth-item">
              <div className="auth-item-main">
                <p className="auth-item-title">
                  <code>{action.name}</code> <span className={`badge${action.risk_level === 'high' ? ' badge-fail' : ''}`}>{action.risk_level} risk</span>
                </p>
                <p className="hint">
                  {action.description}
                  <br />
                  Registered <LocalTime iso={action.created_at} />
                </p>
                <details className="console-details">
                  <summary>Input schema</summary>
                  <pre className="console-pre" tabIndex={0}>
                    {JSON.stringify(action.input_schema, null, 2)}
                  </pre>
                </details>
              </div>
            </li>
          ))}
        </ul>
      </CollectionState>
      {manage && (
        <form className="stack card" onSubmit={create} aria-label="Register an action">
          <h3 className="console-form-title">Register an action</h3>
          <TextField
            label="Name"
            name="name"
            required
            maxLength={100}
            spellCheck={false}
            hint="For example tickets.create."
            error={register.fieldErrors.name}
          />
          <TextField label="Description" name="description" required maxLength={500} error={register.fieldErrors.description} />
          <TextField
            label="Input schema (JSON Schema)"
            name="input_schema"
            multiline
            rows={8}
            required
            spellCheck={false}
            defaultValue={EXAMPLE_SCHEMA}
            error={schemaError ?? register.fieldErrors.input_schema}
          />
          <SelectField label="Risk level" name="risk_level" choices={RISK_LEVELS} defaultValue="low" error={register.fieldErrors.risk_level} />
          {register.alert}
          <div>
            <button type="submit" disabled={register.pending}>
              Register action
            </button>
          </div>
        </form>
      )}
      <StatusNote message={note} />
      {panel}
    </section>
  );
}
