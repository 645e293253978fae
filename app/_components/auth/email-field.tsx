import { useId } from 'react';
import { useFieldError } from './field-error';

/** A labelled e-mail input; the autocomplete token decides which browser help is offered. */
export function EmailField({
  label = 'E-mail address',
  name = 'email',
  autoComplete = 'email',
  autoFocus = false,
  defaultValue,
  error,
}: {
  label?: string;
  name?: string;
  autoComplete?: 'email' | 'username webauthn';
  autoFocus?: boolean;
  defaultValue?: string;
  /** The API's message for this field, shown alone next to it. */
  error?: string;
}) {
  const id = useId();
  const invalid = useFieldError<HTMLInputElement>(id, error);
  return (
    <div className="auth-field">
      <label htmlFor={id}>{label}</label>
      <input
        ref={invalid.ref}
        id={id}
        name={name}
        type="email"
        autoComplete={autoComplete}
        required
        maxLength={254}
        spellCheck={false}
        autoCapitalize="none"
        autoFocus={autoFocus}
        defaultValue={defaultValue}
        {...invalid.props}
      />
      {invalid.message}
    </div>
  );
}
