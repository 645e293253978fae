import { useId } from 'react';
import { useFieldError } from './field-error';

/**
 * The one place that states the password policy (8-128 characters, no composition rules, nothing
 * common or built from the e-mail address or the service's name), so
 * sign-up, recovery and the account page say the same thing the API enforces.
 */
export function NewPasswordField({ name = 'password', autoFocus = false, error }: { name?: string; autoFocus?: boolean; error?: string }) {
  const id = useId();
  const invalid = useFieldError<HTMLInputElement>(id, error, `${id}-hint`);
  return (
    <div className="auth-field">
      <label htmlFor={id}>New password</label>
      <input
        ref={invalid.ref}
        id={id}
        name={name}
        type="password"
        autoComplete="new-password"
        minLength={8}
        required
        autoFocus={autoFocus}
        {...invalid.props}
      />
      {invalid.message}
      <p className="hint" id={`${id}-hint`}>
        8 to 128 characters; 15 or more is recommended. Spaces, words and any characters are welcome, but not a common password or one made from your e-mail
        address or this service&rsquo;s name.
      </p>
    </div>
  );
}
