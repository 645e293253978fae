import { useId } from 'react';

/**
 * The six-digit code field used by sign-up, recovery and e-mail code sign-in: the standard
 * one-time-code token lets phones offer the code from the incoming mail or SMS.
 */
export function CodeInput({ label, name = 'code', autoFocus = true }: { label: string; name?: string; autoFocus?: boolean }) {
  const id = useId();
  return (
    <div className="auth-field">
      <label htmlFor={id}>{label}</label>
      <input
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
        aria-describedby={`${id}-hint`}
        title="The six-digit code from the e-mail"
      />
      <p className="hint" id={`${id}-hint`}>
        Six digits, from the e-mail we just sent.
      </p>
    </div>
  );
}
