'use client';

/**
 * Labelled form controls shared by the organization console and the developer portal (styles in
 * app/console/console.css, which both pages load): each shows its hint and its own error.
 */
import { useId, type ReactNode } from 'react';
import { useFieldError } from './auth/field-error';
import { DottedName } from './dotted-name';

interface FieldProps {
  label: string;
  name: string;
  error?: string;
  hint?: ReactNode;
  required?: boolean;
}

/** A labelled text input (or textarea) with its hint and its own error, as on the account pages. */
export function TextField(
  props: FieldProps & {
    /** `password` for a secret typed once to hand to the service (a provider's client secret), never a sign-in password. */
    type?: 'text' | 'email' | 'url' | 'date' | 'datetime-local' | 'number' | 'search' | 'password';
    autoComplete?: string;
    defaultValue?: string;
    maxLength?: number;
    pattern?: string;
    multiline?: boolean;
    rows?: number;
    min?: number;
    max?: number;
    spellCheck?: boolean;
  },
) {
  const id = useId();
  const hintId = props.hint ? `${id}-hint` : undefined;
  const invalid = useFieldError<HTMLInputElement & HTMLTextAreaElement>(id, props.error, hintId);
  const common = {
    id,
    name: props.name,
    required: props.required,
    defaultValue: props.defaultValue,
    maxLength: props.maxLength,
    spellCheck: props.spellCheck,
    ...invalid.props,
  };
  return (
    <div className="auth-field">
      <label htmlFor={id}>{props.label}</label>
      {props.multiline ? (
        <textarea ref={invalid.ref} rows={props.rows ?? 6} className="console-textarea" {...common} />
      ) : (
        <input
          ref={invalid.ref}
          type={props.type ?? 'text'}
          autoComplete={props.autoComplete ?? 'off'}
          pattern={props.pattern}
          min={props.min}
          max={props.max}
          {...common}
        />
      )}
      {invalid.message}
      {props.hint && (
        <p className="hint" id={hintId}>
          {props.hint}
        </p>
      )}
    </div>
  );
}

export interface Choice {
  value: string;
  label: string;
}

/** A labelled select. Controlled when `value` is given, else uncontrolled with `defaultValue`. */
export function SelectField(
  props: FieldProps & {
    choices: Choice[];
    value?: string;
    defaultValue?: string;
    onChange?: (value: string) => void;
    disabled?: boolean;
    placeholder?: string;
  },
) {
  const id = useId();
  const hintId = props.hint ? `${id}-hint` : undefined;
  const invalid = useFieldError<HTMLSelectElement>(id, props.error, hintId);
  return (
    <div className="auth-field">
      <label htmlFor={id}>{props.label}</label>
      <select
        ref={invalid.ref}
        id={id}
        name={props.name}
        value={props.value}
        defaultValue={props.defaultValue}
        onChange={props.onChange ? (event) => props.onChange?.(event.target.value) : undefined}
        required={props.required}
        disabled={props.disabled}
        {...invalid.props}
      >
        {props.placeholder !== undefined && <option value="">{props.placeholder}</option>}
        {props.choices.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.label}
          </option>
        ))}
      </select>
      {invalid.message}
      {props.hint && (
        <p className="hint" id={hintId}>
          {props.hint}
        </p>
      )}
    </div>
  );
}

export interface CheckOption {
  value: string;
  label: ReactNode;
  hint?: ReactNode;
}

/** Checkboxes sharing one name (read back with checkedValues), in a fieldset; labels are given as they should read. */
export function Checks({
  legend,
  name,
  options,
  defaultChecked = [],
  error,
  nested = false,
}: {
  legend: ReactNode;
  name: string;
  options: CheckOption[];
  defaultChecked?: readonly string[];
  error?: string;
  /** A group inside another fieldset: a lighter frame. */
  nested?: boolean;
}) {
  const id = useId();
  return (
    <fieldset className={nested ? 'console-fieldset console-fieldset-nested' : 'console-fieldset'} aria-describedby={error ? `${id}-error` : undefined}>
      <legend>{legend}</legend>
      <ul className="console-checks">
        {options.map((option) => (
          <li key={option.value}>
            <label className="console-check">
              <input type="checkbox" name={name} value={option.value} defaultChecked={defaultChecked.includes(option.value)} />
              <span>
                {option.label}
                {option.hint && <span className="hint console-check-hint">{option.hint}</span>}
              </span>
            </label>
          </li>
        ))}
      </ul>
      {error && (
        <p id={`${id}-error`} className="error auth-field-error">
          {error}
        </p>
      )}
    </fieldset>
  );
}

/** Checkboxes whose labels are names with dots (scopes, event types), which may break after a dot. */
export function CheckboxGroup({
  options,
  ...group
}: Omit<Parameters<typeof Checks>[0], 'options' | 'nested'> & { options: { value: string; label: string; hint?: string }[] }) {
  return <Checks {...group} options={options.map((option) => ({ ...option, label: <DottedName name={option.label} /> }))} />;
}

/** The values of every checked box called `name`. */
export function checkedValues(form: HTMLFormElement, name: string): string[] {
  return new FormData(form).getAll(name).filter((value): value is string => typeof value === 'string');
}
