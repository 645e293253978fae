'use client';

import { useId } from 'react';
import { useFieldError } from '../_components/auth/field-error';
import { DottedName } from '../_components/dotted-name';
import { PERMISSION_DESCRIPTIONS, type Permission } from '@/lib/contract/permissions';
import { PERMISSION_GROUPS } from './permission-groups';
import { durationUnits, formatDuration, splitDuration } from './policy-text';

// The generic pieces live in app/_components (the developer portal uses them too); re-exported so the sections keep one import.
export { CheckboxGroup, Checks, SelectField, TextField, checkedValues, type Choice } from '../_components/form-fields';
import { Checks } from '../_components/form-fields';
export { CollectionState, useSectionStatus } from '../_components/collection-state';

/**
 * Checkboxes for a set of permissions, grouped by what they are about (each group a labelled
 * fieldset inside the outer one); each box is named by its permission and carries its description.
 */
export function PermissionChoices({
  legend,
  name,
  permissions,
  defaultChecked = [],
  error,
}: {
  legend: string;
  name: string;
  permissions: readonly Permission[];
  defaultChecked?: readonly string[];
  error?: string;
}) {
  const id = useId();
  return (
    <fieldset className="console-fieldset" aria-describedby={error ? `${id}-error` : undefined}>
      <legend>{legend}</legend>
      <div className="console-permission-groups">
        {PERMISSION_GROUPS.map((group) => {
          const offered = group.permissions.filter((permission) => permissions.includes(permission));
          if (offered.length === 0) return null;
          return (
            <Checks
              key={group.label}
              nested
              legend={group.label}
              name={name}
              defaultChecked={defaultChecked}
              options={offered.map((permission) => ({ value: permission, label: <DottedName name={permission} />, hint: PERMISSION_DESCRIPTIONS[permission] }))}
            />
          );
        })}
      </div>
      {error && (
        <p id={`${id}-error`} className="error auth-field-error">
          {error}
        </p>
      )}
    </fieldset>
  );
}

const AMOUNT = 'duration-amount';
const UNIT = 'duration-unit';

/**
 * A duration as a number and a unit (minutes, hours, days; seconds where the minimum is below a
 * minute), starting from `seconds` in the largest unit that holds it exactly. Read back with
 * durationValue. `maxSeconds`, the service's own limit, is said in the hint.
 */
export function DurationField({
  legend,
  seconds,
  minSeconds,
  maxSeconds,
  error,
}: {
  legend: string;
  seconds: number;
  minSeconds: number;
  maxSeconds: number;
  error?: string;
}) {
  const id = useId();
  const hintId = `${id}-hint`;
  const units = durationUnits(minSeconds);
  const start = splitDuration(seconds, units);
  const invalid = useFieldError<HTMLInputElement>(`${id}-amount`, error, hintId);
  return (
    <fieldset className="console-fieldset">
      <legend>{legend}</legend>
      <div className="console-duration">
        <div className="auth-field">
          <label htmlFor={`${id}-amount`}>Amount</label>
          <input
            ref={invalid.ref}
            id={`${id}-amount`}
            name={AMOUNT}
            type="number"
            inputMode="decimal"
            min={0}
            step="any"
            required
            defaultValue={String(start.amount)}
            {...invalid.props}
          />
        </div>
        <div className="auth-field">
          <label htmlFor={`${id}-unit`}>Unit</label>
          <select id={`${id}-unit`} name={UNIT} defaultValue={String(start.unit)}>
            {units.map((unit) => (
              <option key={unit.value} value={unit.value}>
                {unit.label}
              </option>
            ))}
          </select>
        </div>
      </div>
      {invalid.message}
      <p className="hint" id={hintId}>
        Between {formatDuration(minSeconds)} and {formatDuration(maxSeconds)} (the service&rsquo;s own limit).
      </p>
    </fieldset>
  );
}

/** The DurationField's value in whole seconds, or null when the amount is not a number. */
export function durationValue(form: HTMLFormElement): number | null {
  const data = new FormData(form);
  const amount = Number(data.get(AMOUNT));
  const unit = Number(data.get(UNIT));
  if (String(data.get(AMOUNT) ?? '').trim() === '' || !Number.isFinite(amount) || !Number.isFinite(unit)) return null;
  return Math.round(amount * unit);
}
