import { useId } from 'react';
import { useFieldError } from './field-error';

/**
 * The six-digit code field used by sign-up, recovery and e-mail code sign-in: the standard
 * one-time-code token lets phones offer the code from the incoming mail or SMS.
 */
export function CodeInput({ label, name = 'code', autoFocus = true, error }: { label: string; name?: string; autoFocus?: boolean; error?: string }) {
  const id = useId();
  const invalid = useFieldError<HTMLInputElement>(id, error, `${id}-hint`);
  return (
    <div className="auth-field">
      <label htmlFor={id}>{label}</label>
      <input
        ref={invalid.ref}
        id={id}
        name={name}
        type="text"
        className="auth-code"
        autoComplete="one-time-code"
        inputMode="numeric"
        pattern="\d{6}"
        maxLength={6}
        required
        autoFocus={autoFocus}
        title="The six-digit code from the e-mail"
        {...invalid.props}
      />
      {invalid.message}
      <p className="hint" id={`${id}-hint`}>
        Six digits, from the e-mail we just sent.
      </p>
    </div>
  );
}
