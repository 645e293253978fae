import { useId } from 'react';

/** A labelled e-mail input; the autocomplete token decides which browser help is offered. */
export function EmailField({
  label = 'E-mail address',
  name = 'email',
  autoComplete = 'email',
  autoFocus = false,
  defaultValue,
}: {
  label?: string;
  name?: string;
  autoComplete?: 'email' | 'username webauthn';
  autoFocus?: boolean;
  defaultValue?: string;
}) {
  const id = useId();
  return (
    <div className="auth-field">
      <label htmlFor={id}>{label}</label>
      <input
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
      />
    </div>
  );
}
