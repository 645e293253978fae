'use client';

import { useId, type ReactNode } from 'react';
import { useFieldError } from '../_components/auth/field-error';
import type { Option, OptionGroup } from './profile-options';

/**
 * A labelled select with a "Not set" choice and a button that picks this device's own value (its
 * language, its time zone), which is added to the list when the list does not have it.
 */
export function ChoiceField(props: {
  label: string;
  name: string;
  value: string;
  onChange: (value: string) => void;
  groups: OptionGroup[];
  extra: Option | null;
  autoComplete?: string;
  hint: ReactNode;
  deviceButton: string;
  onUseDevice: () => void;
  error?: string;
}) {
  const id = useId();
  const invalid = useFieldError<HTMLSelectElement>(id, props.error, `${id}-hint`);
  const known = props.groups.some((group) => group.options.some((option) => option.value === props.value));

  return (
    <div className="auth-field">
      <label htmlFor={id}>{props.label}</label>
      <select
        ref={invalid.ref}
        id={id}
        name={props.name}
        value={props.value}
        onChange={(event) => props.onChange(event.target.value)}
        autoComplete={props.autoComplete}
        {...invalid.props}
      >
        <option value="">Not set</option>
        {props.extra && <option value={props.extra.value}>{props.extra.label}</option>}
        {!known && props.value && props.value !== props.extra?.value && <option value={props.value}>{props.value}</option>}
        {props.groups.map((group) =>
          group.label ? (
            <optgroup key={group.label} label={group.label}>
              {group.options.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </optgroup>
          ) : (
            group.options.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))
          ),
        )}
      </select>
      {invalid.message}
      <p className="hint" id={`${id}-hint`}>
        {props.hint}{' '}
        <button type="button" className="auth-link-button auth-inline-button" onClick={props.onUseDevice}>
          {props.deviceButton}
        </button>
      </p>
    </div>
  );
}
